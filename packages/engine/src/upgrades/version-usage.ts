import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import { FINAL_STATUSES, RUN_STATUSES, type RunStatus } from '../runs/run-record.js';
import type { Scope, VersionStatusCount } from '../store/store-v1.js';

/** How many runs of one version of a scenario a scope has: `engine.versionUsage`. */
export interface ScenarioVersionUsage {
  readonly object: 'scenario_version_usage';
  readonly scenario_id: string;
  /** Whether this engine loads the version (runs of it can go on, new ones can name it). */
  readonly loaded: boolean;
  /** Runs by status; a status no run is in is left out. */
  readonly by_status: Readonly<Partial<Record<RunStatus, number>>>;
  readonly total: number;
  /** Runs not in a final status: while any is left, the version is in use. */
  readonly unfinished: number;
  /** No unfinished run: once new runs no longer name it, the version can be unloaded. */
  readonly drained: boolean;
}

const SCENARIO_NAME = /^[a-z][a-z0-9-]{0,62}$/;
const PAGE = 200;

/** The version number of an id `name@vN`. */
const versionOf = (id: string): number => Number(id.slice(id.lastIndexOf('@v') + 2));

/** The counts by listing the runs, for a store without `countRunsByVersion`. */
async function countByListing(
  context: EngineContext,
  scope: Scope,
  name: string,
): Promise<VersionStatusCount[]> {
  const counts = new Map<string, VersionStatusCount>();
  for (let after: string | undefined; ;) {
    const page = await context.transactions.run(({ tx }) =>
      tx.listRuns(scope, {
        limit: PAGE,
        ...(after === undefined ? {} : { starting_after: after }),
      }),
    );
    for (const run of page.data) {
      if (!run.scenario_id.startsWith(`${name}@`)) continue;
      const key = `${run.scenario_id} ${run.status}`;
      const count = (counts.get(key)?.count ?? 0) + 1;
      counts.set(key, { scenario_id: run.scenario_id, status: run.status, count });
    }
    if (!page.has_more || page.data.length === 0) return [...counts.values()];
    after = page.data.at(-1)!.id;
  }
}

/**
 * The versions of the scenario `name` (ids `name@v…`) this engine loads or the scope has
 * runs of, oldest version first, each with its runs by status and whether it has drained
 * (no run left unfinished): what an operator reads to know when an old version can go.
 * A name no loaded version has and no run names is `scenario_not_found`.
 */
export async function versionUsage(
  context: EngineContext,
  scope: Scope,
  name: string,
): Promise<ScenarioVersionUsage[]> {
  if (!SCENARIO_NAME.test(name))
    throw new EngineError(
      'scenario_not_found',
      `"${name}" is not a scenario name such as bank-payout`,
    );
  const counted = await context.transactions.run(({ tx }) =>
    tx.countRunsByVersion ? tx.countRunsByVersion(scope, name) : Promise.resolve(null),
  );
  const counts = counted ?? (await countByListing(context, scope, name));
  const loaded = context.catalogue
    .list()
    .map((scenario) => scenario.id)
    .filter((id) => id.startsWith(`${name}@`));
  const ids = new Set([...loaded, ...counts.map((count) => count.scenario_id)]);
  if (ids.size === 0)
    throw new EngineError('scenario_not_found', `no version of ${name} is loaded or has runs`);
  return [...ids]
    .sort((a, b) => versionOf(a) - versionOf(b))
    .map((id) => {
      const byStatus: Partial<Record<RunStatus, number>> = {};
      for (const status of RUN_STATUSES) {
        const count = counts
          .filter((row) => row.scenario_id === id && row.status === status)
          .reduce((sum, row) => sum + row.count, 0);
        if (count > 0) byStatus[status] = count;
      }
      const total = Object.values(byStatus).reduce((sum, count) => sum + count, 0);
      const finished = [...FINAL_STATUSES].reduce(
        (sum, status) => sum + (byStatus[status] ?? 0),
        0,
      );
      return {
        object: 'scenario_version_usage',
        scenario_id: id,
        loaded: loaded.includes(id),
        by_status: byStatus,
        total,
        unfinished: total - finished,
        drained: total === finished,
      };
    });
}
