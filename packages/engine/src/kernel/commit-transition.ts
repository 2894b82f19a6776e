import type { CompiledScenario, RunState, StepResult } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import type { HandoffSettings } from '../handoffs/handoff-settings.js';
import type { SandboxOptions } from '../handoffs/sandbox.js';
import { syncHandoffJobs } from '../handoffs/sync-handoff-jobs.js';
import { buildRecords, type PendingFact } from '../lifecycle/build-records.js';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { DeliveryWakeup } from '../outbox/delivery-wakeup.js';
import { buildRunRecord, statusOf } from '../runs/build-run-record.js';
import {
  FINAL_STATUSES,
  type ActivationPosture,
  type RunUpgradeRecord,
} from '../runs/run-record.js';
import { advanceStages, initialStages } from '../runs/stage-progress.js';
import type {
  HandoffJobRow,
  HandoffJobSettle,
  Scope,
  StoredRun,
  TimerRow,
} from '../store/store-v1.js';
import type { EngineMetrics } from '../telemetry/engine-metrics.js';
import { planTimers } from '../time/timer-plan.js';
import { reconcileTimers } from './reconcile-timers.js';
import type { Transaction } from './transaction.js';
import { countTransition, type TransitionKind } from './transition-metrics.js';

/** A new run's fixed attributes. */
export interface RunCreation {
  readonly idempotencyKey: string | null;
  readonly sessionId: string | null;
  readonly sourcePath: string | null;
  readonly inputs: JsonObject;
}

/** Input of {@link commitTransition}. */
export interface CommitTransitionInput {
  readonly transaction: Transaction;
  readonly compiled: CompiledScenario;
  readonly scope: Scope;
  readonly runId: string;
  readonly now: Date;
  /** What the machine did: the new snapshot and state, and the facts it emitted. */
  readonly result: StepResult;
  /** The run before this transition; null when creating. */
  readonly previous: StoredRun | null;
  readonly creation?: RunCreation;
  /** Facts recorded before the machine's (e.g. `created`). */
  readonly leadingFacts?: readonly PendingFact[];
  /** The timer whose firing caused this transition. */
  readonly firedTimerId?: string;
  /** The run's pending timers when the caller already read them in this transaction. */
  readonly pendingTimers?: readonly TimerRow[];
  /**
   * Timers planned besides the machine's: an upgraded run's pending timers under the new
   * step's ids, deadlines unchanged (scheduled when the run awaits their step and attempt).
   */
  readonly carriedTimers?: readonly TimerRow[];
  /** Pending timers the carried ones replace (an upgraded wait's moved deadline): cancelled. */
  readonly replacedTimerIds?: readonly string[];
  /**
   * The upgrade this transition is (its record's sequence is filled in): kept in the run
   * record's `upgrades`.
   */
  readonly upgrade?: Omit<RunUpgradeRecord, 'sequence'>;
  readonly sandbox: SandboxOptions;
  /** Which live parties have connectors, and who to wake once a live job is queued. */
  readonly handoffs: HandoffSettings;
  /** The handoff job whose settled call caused this transition, written with it. */
  readonly settledJob?: HandoffJobSettle;
  /** When the records' webhook deliveries fall due, and who to wake after the commit. */
  readonly deliveries: DeliveryWakeup;
  /** The run's activation posture; by default the previous record's (or none required). */
  readonly activation?: ActivationPosture;
  /** What caused the transition, as the metrics count it. */
  readonly kind: TransitionKind;
  /** Where the transition is counted once it commits; absent when telemetry is off. */
  readonly metrics?: EngineMetrics | undefined;
  /**
   * The W3C `traceparent` a new run keeps (its create span's); a run keeps the one it was
   * created with. Absent or null: none kept.
   */
  readonly traceContext?: string | null | undefined;
}

/** The facts of a transition: leading facts, the machine's (with deadlines), and the seal. */
function transitionFacts(
  input: CommitTransitionInput,
  planned: readonly PendingFact[],
): PendingFact[] {
  const { result, previous } = input;
  const facts = [...(input.leadingFacts ?? []), ...planned];
  // The history is final once the run is: seal it with a last record.
  if (
    FINAL_STATUSES.has(statusOf(result.state)) &&
    !(previous && FINAL_STATUSES.has(previous.status))
  ) {
    facts.push({
      type: 'evidence.sealed',
      stage: null,
      step: null,
      data: {
        status: statusOf(result.state),
        records: (previous?.last_sequence ?? 0) + facts.length + 1,
      },
    });
  }
  return facts;
}

/**
 * Commits one transition inside the caller's transaction: hash-chained lifecycle records
 * (with their webhook events in the outbox), timers for new deadlines (and cancellation of
 * stale ones), handoff jobs (queued for the awaited handoff, closed for the others), and
 * the run, inserted or updated with compare-and-swap on its version.
 */
export async function commitTransition(
  input: CommitTransitionInput,
): Promise<{ run: StoredRun; records: LifecycleRecord[]; awaitedJob: AwaitedJob }> {
  const { transaction, compiled, scope, runId, now, result, previous } = input;
  const { tx } = transaction;
  const nowIso = now.toISOString();
  const traceContext = previous ? previous.trace_context : input.traceContext;
  const plan = planTimers({
    compiled,
    runId,
    account: scope.account,
    environment: scope.environment,
    now,
    facts: result.facts,
    context: result.snapshot.context,
  });
  const facts = transitionFacts(input, plan.facts);
  const records = buildRecords(
    runId,
    { sequence: previous?.last_sequence ?? 0, hash: previous?.record.evidence.chain_head ?? null },
    nowIso,
    facts,
  );
  const timers = reconcileTimers({
    existing: input.pendingTimers ?? (previous ? await tx.pendingTimers(runId) : []),
    planned: input.carriedTimers ? [...plan.timers, ...input.carriedTimers] : plan.timers,
    awaiting: result.state.awaiting,
    firedTimerId: input.firedTimerId,
    replacedTimerIds: input.replacedTimerIds,
  });

  const creation = input.creation;
  const record = buildRunRecord({
    id: runId,
    compiled,
    environment: scope.environment,
    snapshot: result.snapshot,
    state: result.state,
    stages: advanceStages(
      previous?.record.stages ?? initialStages(compiled.graph),
      facts,
      result.state,
      nowIso,
    ),
    pendingTimers: [...timers.keep, ...timers.schedule],
    chainHead: records.at(-1)?.hash ?? previous?.record.evidence.chain_head ?? null,
    sessionId: previous?.record.session_id ?? creation?.sessionId ?? null,
    sourcePath: previous?.record.source_path ?? creation?.sourcePath ?? null,
    inputs: previous?.record.inputs ?? creation?.inputs ?? {},
    createdAt: previous?.record.created_at ?? nowIso,
    updatedAt: nowIso,
    previous: previous?.record ?? null,
    ...(input.activation ? { activation: input.activation } : {}),
    ...(input.upgrade && records[0]
      ? { upgrade: { ...input.upgrade, sequence: records[0].sequence } }
      : {}),
  });
  const run: StoredRun = {
    id: runId,
    account: scope.account,
    environment: scope.environment,
    version: (previous?.version ?? 0) + 1,
    scenario_id: compiled.id,
    status: record.status,
    created_at: record.created_at,
    idempotency_key: previous?.idempotency_key ?? creation?.idempotencyKey ?? null,
    snapshot: result.snapshot,
    last_sequence: records.at(-1)?.sequence ?? previous?.last_sequence ?? 0,
    record,
    ...(traceContext ? { trace_context: traceContext } : {}),
  };

  const jobs = syncHandoffJobs({
    transaction,
    compiled,
    scope,
    runId,
    now,
    facts: plan.facts,
    awaiting: result.state.awaiting,
    previous,
    settledJobId: input.settledJob?.job.id,
    sandbox: input.sandbox,
    handoffs: input.handoffs,
    traceContext,
  });
  const written = await tx.writeTransition({
    scope,
    run,
    expectedVersion: previous ? previous.version : null,
    records,
    deliveriesDueAt: input.deliveries.dueAt(scope.environment),
    scheduleTimers: timers.schedule,
    cancelTimers: timers.cancel.map((timer) => timer.id),
    firedTimer: input.firedTimerId ?? null,
    closeHandoffJobs: jobs.close,
    insertHandoffJobs: jobs.insert,
    settleHandoffJob: input.settledJob ?? null,
  });
  if (written.deliveries > 0) input.deliveries.afterCommit(transaction);
  countTransition(input.metrics, transaction, {
    kind: input.kind,
    scope,
    scenarioId: compiled.id,
    before: previous?.status ?? null,
    after: run.status,
  });
  return { run, records, awaitedJob: awaitedJob(previous, result.state.awaiting, jobs.insert) };
}

/**
 * The awaited handoff's open job as a transition left it, when the transition knows it
 * without reading: the job it queued, or null when it queued none and no open job can
 * exist (the run awaits no handoff, or one it did not await before, whose job would have
 * been closed when it stopped being awaited). Undefined when a job may have been kept.
 */
export type AwaitedJob = HandoffJobRow | null | undefined;

function awaitedJob(
  previous: StoredRun | null,
  awaiting: RunState['awaiting'],
  queued: readonly HandoffJobRow[],
): AwaitedJob {
  if (awaiting?.kind !== 'handoff') return null;
  const job = queued.find((row) => row.step === awaiting.step && row.attempt === awaiting.attempt);
  if (job) return job;
  const before = previous?.record.awaiting;
  return before?.kind === 'handoff' && before.step === awaiting.step ? undefined : null;
}
