import { FINAL_STATUSES, RUN_STATUSES, type RunStatus, type Scope } from '@programrun/engine';
import { environmentOption, parseOptions, requireOption } from '../parse-options.js';
import type { StoreOpener } from '../store/open-store.js';
import { UsageError } from '../usage-error.js';
import { formatOption } from './validate.js';
import { EXIT, type Output } from './verify.js';

/** `programrun upgrade status` usage. */
export const UPGRADE_STATUS_USAGE =
  'usage: programrun upgrade status <scenario> --account <id> [--env test|live] [--format text|json]';

/** Runs of one version of a scenario in one scope, by status. */
export interface VersionCount {
  readonly scenario_id: string;
  readonly by_status: Readonly<Partial<Record<RunStatus, number>>>;
  readonly total: number;
  /** Runs not in a final status: while any is left, the version is in use. */
  readonly unfinished: number;
}

const PAGE = 200;

/**
 * `programrun upgrade status <scenario> --account <id>`: how many runs of each version of
 * the scenario the account has in the store `PROGRAMRUN_STORE` names, by status, and how
 * many are unfinished, so an operator knows when a version has drained. `<scenario>` is a
 * name (`bank-payout`) or an id (`bank-payout@v1`, whose name counts).
 *
 * @example
 * ```ts
 * await upgradeStatusCommand(['bank-payout', '--account', 'acct_1', '--env', 'live'], output, openStore);
 * ```
 */
export async function upgradeStatusCommand(
  argv: readonly string[],
  output: Output,
  openStore: StoreOpener,
): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    account: { type: 'string' },
    env: { type: 'string' },
    format: { type: 'string' },
  });
  if (positionals.length !== 1) throw new UsageError(UPGRADE_STATUS_USAGE);
  const name = /^([a-z][a-z0-9-]{0,62})(@v[1-9][0-9]*)?$/.exec(positionals[0]!)?.[1];
  if (name === undefined)
    throw new UsageError(`"${positionals[0]}" is not a scenario name or id such as bank-payout@v1`);
  const format = formatOption(values.format, ['text', 'json']);
  const scope: Scope = {
    account: requireOption(values, 'account'),
    environment: environmentOption(values, 'live'),
  };
  const opened = await openStore();
  const counts = new Map<string, Map<RunStatus, number>>();
  try {
    for (let after: string | undefined; ;) {
      const page = await opened.store.transaction((tx) =>
        tx.listRuns(scope, {
          limit: PAGE,
          ...(after === undefined ? {} : { starting_after: after }),
        }),
      );
      for (const run of page.data) {
        if (!run.scenario_id.startsWith(`${name}@`)) continue;
        const byStatus = counts.get(run.scenario_id) ?? new Map<RunStatus, number>();
        byStatus.set(run.status, (byStatus.get(run.status) ?? 0) + 1);
        counts.set(run.scenario_id, byStatus);
      }
      if (!page.has_more || page.data.length === 0) break;
      after = page.data.at(-1)!.id;
    }
  } finally {
    await opened.close();
  }
  const versions: VersionCount[] = [...counts]
    .sort(([a], [b]) => versionOf(a) - versionOf(b))
    .map(([scenario_id, byStatus]) => {
      const total = [...byStatus.values()].reduce((sum, count) => sum + count, 0);
      const finished = [...FINAL_STATUSES].reduce(
        (sum, status) => sum + (byStatus.get(status) ?? 0),
        0,
      );
      return {
        scenario_id,
        by_status: Object.fromEntries(byStatus),
        total,
        unfinished: total - finished,
      };
    });
  if (format === 'json') {
    output.out(JSON.stringify({ scenario: name, ...scope, versions }, null, 2));
    return EXIT.ok;
  }
  output.out(`${name}: runs of ${scope.account} (${scope.environment})`);
  if (versions.length === 0) {
    output.out('  none');
    return EXIT.ok;
  }
  const statuses = RUN_STATUSES.filter((status) =>
    versions.some((version) => version.by_status[status]),
  );
  const header = ['version', ...statuses, 'total', 'unfinished'];
  const rows = versions.map((version) => [
    version.scenario_id.slice(name.length + 1),
    ...statuses.map((status) => String(version.by_status[status] ?? 0)),
    String(version.total),
    String(version.unfinished),
  ]);
  const widths = header.map((cell, index) =>
    Math.max(cell.length, ...rows.map((row) => row[index]!.length)),
  );
  for (const row of [header, ...rows])
    output.out(
      `  ${row.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ')}`,
    );
  for (const version of versions)
    output.out(
      version.unfinished === 0
        ? `${version.scenario_id} has drained: none of its runs is unfinished`
        : `${version.scenario_id} is in use: ${version.unfinished} unfinished run(s)`,
    );
  return EXIT.ok;
}

/** The number of a scenario id's version (`bank-payout@v12` → 12). */
const versionOf = (id: string): number => Number(id.slice(id.lastIndexOf('@v') + 2));
