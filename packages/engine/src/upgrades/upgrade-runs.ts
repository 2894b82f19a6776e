import type { UpgradeReport } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import type { RunStatus } from '../runs/run-record.js';
import type { Scope } from '../store/store-v1.js';
import { ACTOR_RULE, isActor } from '../accounts/actor.js';
import { upgradeRun, type RunUpgrade, type UpgradeSides } from './upgrade-run.js';

/** Options of `engine.upgradeRuns`. */
export interface UpgradeRunsOptions {
  /** The proof (`checkUpgrade` of the two scenario files this engine loads, and the migration). */
  readonly report: UpgradeReport;
  /**
   * Who moves the runs: an actor (an operator, e.g. `ops:alice`; 1–128 characters),
   * recorded in each moved run's `program_run.upgraded` record (`upgraded_by`) and its
   * `upgrades`. Required unless `dryRun`.
   */
  readonly actor?: string;
  /** Report what would happen to each run, moving none. @default false */
  readonly dryRun?: boolean;
  /** Only runs in this status. */
  readonly status?: RunStatus;
  /** Only runs in this stage (of the old version). */
  readonly stage?: string;
  /** At most this many runs are looked at. @default unlimited */
  readonly limit?: number;
  /**
   * Told of each run as soon as it is done with (a moved run once its transaction
   * committed), in the order of `runs`: to show progress while a long upgrade goes on.
   */
  readonly onRun?: (run: RunUpgrade) => void;
}

/** What `engine.upgradeRuns` did, run by run, newest run first. */
export interface UpgradeRunsResult {
  readonly from: string;
  readonly to: string;
  readonly dry_run: boolean;
  readonly runs: readonly RunUpgrade[];
  /** How many runs came to each outcome. */
  readonly counts: Readonly<Record<RunUpgrade['outcome'], number>>;
}

const PAGE = 100;

/** Whether moving a run may write its handoff job after its transition (two writes). */
const writesJobs = (report: UpgradeReport): boolean =>
  Object.keys(report.parties).length > 0 || report.states.some((state) => state.deadline);

/** The two compiled versions the proof is about, refusing a proof of other files. */
function sidesOf(context: EngineContext, report: UpgradeReport): UpgradeSides {
  const notProven = (why: string) => new EngineError('upgrade_not_proven', why);
  if (!report.from || !report.to || !report.fromDigest || !report.toDigest)
    throw notProven('the upgrade report has no versions: a file did not load');
  if (report.states.length === 0 && report.problems.length > 0)
    throw notProven(`the upgrade was not checked: ${report.problems[0]!.message}`);
  // A problem of no one state (an input the migration must give) holds every run back.
  const ofStates = new Set(report.states.flatMap((state) => state.problems));
  const general = report.problems.find((problem) => !ofStates.has(problem));
  if (general) throw notProven(`the upgrade is not safe: ${general.code} ${general.message}`);
  const loaded = (id: string) =>
    context.catalogue.has(id) ? context.catalogue.get(id) : undefined;
  const from = loaded(report.from);
  const to = loaded(report.to);
  for (const [id, compiled, digest] of [
    [report.from, from, report.fromDigest],
    [report.to, to, report.toDigest],
  ] as const) {
    if (!compiled) throw notProven(`this engine does not load ${id}`);
    if (compiled.digest !== digest)
      throw notProven(
        `the proof is about another ${id} (digest ${digest}) than this engine loads (${compiled.digest})`,
      );
  }
  return { from: from!, to: to!, report };
}

/**
 * Moves the stored runs of `report.from` in `scope` to `report.to`, one transaction per
 * run (see `upgradeRun`): a run either moves whole (snapshot on the new version, a
 * `program_run.upgraded` record, timers reconciled) or stays as it was. Runs waiting at a
 * step the proof found unsafe, or that the migration keeps, stay on the old version and
 * are listed with the reason; finished runs are skipped. Running it again moves what is
 * left: a moved run is on the new version and never moved twice. Each move records who
 * made it (`actor`).
 */
export async function upgradeRuns(
  context: EngineContext,
  scope: Scope,
  options: UpgradeRunsOptions,
): Promise<UpgradeRunsResult> {
  const dryRun = options.dryRun ?? false;
  const { actor } = options;
  if (!dryRun && !isActor(actor))
    throw new EngineError(
      'invalid_upgrade_request',
      actor === undefined
        ? 'an upgrade that moves runs names who moves them (actor)'
        : `actor: ${ACTOR_RULE}`,
    );
  const sides = sidesOf(context, options.report);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const runs: RunUpgrade[] = [];
  // The runs of the old version, listed before any moves (a moved run leaves the list).
  const ids: string[] = [];
  for (let after: string | undefined; ids.length < limit;) {
    const page = await context.transactions.run(({ tx }) =>
      tx.listRuns(scope, {
        scenario_id: sides.from.id,
        ...(options.status === undefined ? {} : { status: options.status }),
        ...(options.stage === undefined ? {} : { stage: options.stage }),
        ...(after === undefined ? {} : { starting_after: after }),
        limit: PAGE,
      }),
    );
    ids.push(...page.data.map((run) => run.id).slice(0, limit - ids.length));
    if (!page.has_more || page.data.length === 0) break;
    after = page.data.at(-1)!.id;
  }
  for (const runId of ids) {
    const run = await context.transactions.run(
      (transaction) =>
        upgradeRun(context, transaction, scope, runId, sides, dryRun ? null : actor!),
      { singleWrite: !writesJobs(sides.report) },
    );
    runs.push(run);
    options.onRun?.(run);
  }
  const counts = { upgraded: 0, would_upgrade: 0, stays: 0, refused: 0, skipped: 0 };
  for (const run of runs) counts[run.outcome] += 1;
  return { from: sides.from.id, to: sides.to.id, dry_run: dryRun, runs, counts };
}
