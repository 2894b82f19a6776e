import type { CompiledScenario, UpgradeReport } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import { commitTransition } from '../kernel/commit-transition.js';
import { isStarted, loadRunForTransition } from '../kernel/load-run.js';
import type { Transaction } from '../kernel/transaction.js';
import { FINAL_STATUSES, type StageRecord } from '../runs/run-record.js';
import { initialStages } from '../runs/stage-progress.js';
import type { Scope } from '../store/store-v1.js';
import { carriedInputs } from './carried-inputs.js';
import { movedJob } from './moved-job.js';
import { movedTimers } from './moved-timers.js';
import { upgradedSnapshot } from './upgraded-snapshot.js';

/** What an upgrade did (or, in a dry run, would do) with one run. */
export interface RunUpgrade {
  readonly run_id: string;
  /**
   * `upgraded` (moved, in one transaction), `would_upgrade` (a dry run), `stays` (the
   * migration keeps runs waiting there on the old version), `refused` (the proof does not
   * let it move: it stays on the old version, `reason` says why) or `skipped` (no longer a
   * waiting run of the old version: finished, or moved already).
   */
  readonly outcome: 'upgraded' | 'would_upgrade' | 'stays' | 'refused' | 'skipped';
  /** The old version's step the run waits at, when it waits. */
  readonly state: string | null;
  /** The new version's step it waits at after the move. */
  readonly maps_to: string | null;
  readonly reason: string | null;
}

/** The two versions and the proof an upgrade of stored runs goes by. */
export interface UpgradeSides {
  readonly from: CompiledScenario;
  readonly to: CompiledScenario;
  readonly report: UpgradeReport;
}

const outcome = (
  runId: string,
  kind: RunUpgrade['outcome'],
  state: string | null,
  reason: string | null,
  mapsTo: string | null = null,
): RunUpgrade => ({ run_id: runId, outcome: kind, state, maps_to: mapsTo, reason });

/** The new version's stages, each as the run had it when the old version had it too. */
function carriedStages(previous: readonly StageRecord[], to: CompiledScenario): StageRecord[] {
  const before = new Map(previous.map((stage) => [stage.id, stage]));
  return initialStages(to.graph).map((stage) => before.get(stage.id) ?? stage);
}

/**
 * Moves one run of `sides.from` to `sides.to` inside the caller's transaction, when the
 * proof lets the step it waits at move: its snapshot rebuilt on the new version at the
 * mapped step (`upgradedSnapshot`), checked to wait there for the same kind of thing, and
 * written as one transition of the new version whose one record is `program_run.upgraded`
 * (both digests, the mapping, the migration's digest), continuing the run's hash chain.
 * The moved run carries the migration's inputs (`carriedInputs`). The step's pending
 * timers keep their deadlines unless the proof moves the wait's (`movedTimers`); its
 * handoff job (same step, attempt and partner key) stays, under its renamed party and
 * moved deadline when the migration says so (`movedJob`). `actor` (who moves it) goes in
 * the record and the run's `upgrades`; a dry run (`actor` null) stops before the write.
 */
export async function upgradeRun(
  context: EngineContext,
  transaction: Transaction,
  scope: Scope,
  runId: string,
  sides: UpgradeSides,
  actor: string | null,
): Promise<RunUpgrade> {
  const { from, to, report } = sides;
  const loaded = await loadRunForTransition(transaction.tx, scope, runId);
  const { run } = loaded;
  if (run.scenario_id !== from.id) return outcome(runId, 'skipped', null, `on ${run.scenario_id}`);
  if (FINAL_STATUSES.has(run.status)) return outcome(runId, 'skipped', null, `${run.status}`);
  if (run.record.scenario_digest !== from.digest)
    return outcome(
      runId,
      'refused',
      null,
      `created with another ${from.id} (digest ${run.record.scenario_digest})`,
    );
  if (!isStarted(run)) return outcome(runId, 'refused', null, 'suspended in intake');
  const before = from.describe(run.snapshot);
  const waiting = before.awaiting;
  if (!waiting) return outcome(runId, 'refused', before.step, 'it waits for nothing');
  const state = report.states.find((candidate) => candidate.state === waiting.step);
  if (!state)
    return outcome(runId, 'refused', waiting.step, `the proof does not cover "${waiting.step}"`);
  if (state.stays)
    return outcome(runId, 'stays', waiting.step, 'the migration keeps it on the old version');
  if (state.problems.length > 0)
    return outcome(
      runId,
      'refused',
      waiting.step,
      state.problems.map((problem) => `${problem.code}: ${problem.message}`).join('; '),
    );
  const mapsTo = state.mapsTo ?? waiting.step;
  const snapshot = upgradedSnapshot(run.snapshot, {
    from: waiting.step,
    to: mapsTo,
    graph: to.graph,
    renames: report.renames,
  });
  if (typeof snapshot === 'string')
    return outcome(runId, 'refused', waiting.step, snapshot, mapsTo);
  const carried = carriedInputs(from, to, run.snapshot.context, report.inputs);
  if (typeof carried === 'string') return outcome(runId, 'refused', waiting.step, carried, mapsTo);
  const moved = { ...snapshot, context: { ...snapshot.context, inputs: carried.inputs } };
  const after = to.describe(moved);
  if (after.awaiting?.step !== mapsTo || after.awaiting.kind !== waiting.kind)
    return outcome(
      runId,
      'refused',
      waiting.step,
      `on ${to.id} it would not wait at "${mapsTo}" for ${waiting.kind === 'timer' ? 'a timer' : `an ${waiting.kind}`}`,
      mapsTo,
    );
  // The clock as the run was read with it (its account's test clock came with the run).
  const now = context.clocks.nowWith(scope, loaded.testClock);
  const timers = movedTimers(
    loaded.pendingTimers,
    runId,
    { from: waiting.step, to: mapsTo },
    state.deadline,
    to.digest,
  );
  if (timers.deadline && Date.parse(timers.deadline.from) <= now.getTime())
    return outcome(
      runId,
      'refused',
      waiting.step,
      `its deadline (${timers.deadline.from}) has passed: it is about to take its timeout on ${from.id}`,
      mapsTo,
    );
  // Only a handoff has a job to move (an approval or a wait reads none).
  const job =
    waiting.kind === 'handoff'
      ? await movedJob(
          transaction.tx,
          runId,
          waiting.step,
          { parties: report.parties, deadline: timers.deadline?.to ?? null },
          now,
        )
      : null;
  if (typeof job === 'string') return outcome(runId, 'refused', waiting.step, job, mapsTo);
  if (actor === null) return outcome(runId, 'would_upgrade', waiting.step, null, mapsTo);
  const versions = {
    from: { scenario_id: from.id, scenario_digest: from.digest },
    to: { scenario_id: to.id, scenario_digest: to.digest },
  };
  await commitTransition({
    transaction,
    compiled: to,
    scope,
    runId,
    now,
    result: {
      accepted: true,
      snapshot: moved,
      state: after,
      facts: [
        {
          type: 'upgraded',
          stage: after.stage,
          step: mapsTo,
          data: {
            ...versions,
            state: waiting.step,
            maps_to: mapsTo,
            renames: { ...report.renames },
            party_renames: { ...report.parties },
            deadlines_moved: timers.deadline
              ? {
                  [mapsTo]: {
                    ...timers.deadline,
                    ...(job?.resumed ? { calls_resumed: true } : {}),
                  },
                }
              : {},
            inputs_given: carried.given,
            migration_digest: report.migrationDigest,
            upgraded_by: actor,
          },
        },
      ],
    },
    previous: { ...run, record: { ...run.record, stages: carriedStages(run.record.stages, to) } },
    pendingTimers: loaded.pendingTimers,
    carriedTimers: timers.carried,
    replacedTimerIds: timers.replaced,
    sandbox: context.sandbox,
    handoffs: context.handoffs,
    deliveries: context.deliveries,
    kind: 'upgrade',
    upgrade: {
      ...versions,
      upgraded_at: now.toISOString(),
      upgraded_by: actor,
      state: waiting.step,
      maps_to: mapsTo,
    },
  });
  // Fenced on the lease as read: a call claimed since is a conflict, and the retry refuses.
  if (job) await transaction.tx.updateHandoffJob(job.next, job.job);
  return outcome(runId, 'upgraded', waiting.step, null, mapsTo);
}
