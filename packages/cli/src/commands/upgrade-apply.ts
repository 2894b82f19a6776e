import { compile, formatProblem } from '@programrun/dsl';
import {
  createEngine,
  RUN_STATUSES,
  type RunStatus,
  type RunUpgrade,
  type Scope,
} from '@programrun/engine';
import { CommandFailure } from '../command.js';
import {
  actorOption,
  environmentOption,
  parseOptions,
  requireOption,
  stringOption,
} from '../parse-options.js';
import type { StoreOpener } from '../store/open-store.js';
import { UsageError } from '../usage-error.js';
import { upgradeProof } from './upgrade.js';
import { formatOption } from './validate.js';
import { EXIT, type Output } from './verify.js';

/** `programrun upgrade apply` usage. */
export const UPGRADE_APPLY_USAGE =
  'usage: programrun upgrade apply <from> <to> --account <id> --actor <name> [--env test|live] [--migration <file>] [--scenarios <dir>] [--dry-run] [--status <status>] [--stage <stage>] [--format text|json]';

/** One run's line: its id, what happened, where it waited (and waits now), and why. */
function runLine(run: RunUpgrade): string {
  const where =
    run.state === null
      ? ''
      : ` at ${run.state}${run.maps_to && run.maps_to !== run.state ? ` → ${run.maps_to}` : ''}`;
  return `  ${run.run_id}  ${run.outcome}${where}${run.reason ? `: ${run.reason}` : ''}`;
}

/**
 * `programrun upgrade apply <from> <to> --account <id>`: proves the upgrade as `upgrade
 * check` does, then moves the account's stored runs of `<from>` (in the store
 * `PROGRAMRUN_STORE` names) to `<to>` with `engine.upgradeRuns`, one transaction per run,
 * and prints what happened to each, run by run as it goes. `--actor` names who moves them (in each moved run's
 * `program_run.upgraded` record); `--dry-run` moves none and needs no actor. Exit 0 when no run was
 * refused, 1 when the proof failed to load or some run stays for a reason the proof gave
 * (listed), 2 usage. Running it again moves what is left.
 *
 * @example
 * ```ts
 * await upgradeApplyCommand(['bank-payout@v1', 'bank-payout@v2', '--account', 'acct_1', '--env', 'test', '--actor', 'ops:alice'], output, openStore);
 * ```
 */
export async function upgradeApplyCommand(
  argv: readonly string[],
  output: Output,
  openStore: StoreOpener,
): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    account: { type: 'string' },
    actor: { type: 'string' },
    env: { type: 'string' },
    migration: { type: 'string' },
    scenarios: { type: 'string' },
    'dry-run': { type: 'boolean' },
    status: { type: 'string' },
    stage: { type: 'string' },
    format: { type: 'string' },
  });
  const [fromName, toName, ...extra] = positionals;
  if (fromName === undefined || toName === undefined || extra.length > 0)
    throw new UsageError(UPGRADE_APPLY_USAGE);
  const format = formatOption(values.format, ['text', 'json']);
  const status = stringOption(values, 'status');
  if (status !== undefined && !(RUN_STATUSES as readonly string[]).includes(status))
    throw new UsageError(`--status must be one of ${RUN_STATUSES.join(', ')}`);
  const stage = stringOption(values, 'stage');
  const dryRun = values['dry-run'] === true;
  const actor = actorOption(values);
  if (actor === undefined && !dryRun)
    throw new UsageError(
      '--actor names who moves the runs (e.g. --actor ops:alice), recorded with each run; only --dry-run goes without',
    );
  const scope: Scope = {
    account: requireOption(values, 'account'),
    environment: environmentOption(values, 'live'),
  };
  const proof = await upgradeProof(fromName, toName, values);
  const { report } = proof;
  if (report.states.length === 0) {
    for (const problem of report.problems) output.err(formatProblem(problem));
    throw new CommandFailure(
      `${report.problems.length} problem(s) before any state could be checked; no run was moved`,
    );
  }
  const scenarios = [proof.from, proof.to].map((file) =>
    compile(file.text, file.file === undefined ? {} : { file: file.file }),
  );
  const opened = await openStore();
  try {
    if (!opened.durable)
      throw new UsageError(
        'upgrade apply needs the durable store your server uses; PROGRAMRUN_STORE=memory holds no runs between commands',
      );
    const engine = createEngine({ store: opened.store, scenarios });
    const text = format === 'text';
    if (text)
      output.out(
        `${report.from} → ${report.to} for ${scope.account} (${scope.environment})${dryRun ? ', dry run' : ` by ${actor}`}`,
      );
    const result = await engine.upgradeRuns(scope, {
      report,
      dryRun,
      ...(actor === undefined ? {} : { actor }),
      ...(status === undefined ? {} : { status: status as RunStatus }),
      ...(stage === undefined ? {} : { stage }),
      // Each run's line as soon as it is done with: a long upgrade shows its progress.
      ...(text ? { onRun: (run: RunUpgrade) => output.out(runLine(run)) } : {}),
    });
    if (text) {
      const counts = Object.entries(result.counts)
        .filter(([, count]) => count > 0)
        .map(([outcome, count]) => `${count} ${outcome}`);
      output.out(
        counts.length === 0 ? `No run of ${result.from} in this account.` : counts.join(', '),
      );
    } else {
      output.out(JSON.stringify({ ...scope, ...result, problems: report.problems }, null, 2));
    }
    if (result.counts.refused > 0)
      throw new CommandFailure(
        `${result.counts.refused} run(s) stay on ${result.from}: the proof does not let them move`,
      );
    return EXIT.ok;
  } finally {
    await opened.close();
  }
}
