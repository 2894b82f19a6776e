import {
  createEngine,
  EngineError,
  RUN_STATUSES,
  type RunStatus,
  type Scope,
} from '@programrun/engine';
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
  let versions: VersionCount[];
  try {
    // No catalogue: the versions are those the store has runs of.
    const engine = createEngine({ store: opened.store, scenarios: [] });
    versions = (await engine.versionUsage(scope, name)).map(
      ({ scenario_id, by_status, total, unfinished }) => ({
        scenario_id,
        by_status,
        total,
        unfinished,
      }),
    );
  } catch (error) {
    if (!(error instanceof EngineError && error.code === 'scenario_not_found')) throw error;
    versions = [];
  } finally {
    await opened.close();
  }
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
