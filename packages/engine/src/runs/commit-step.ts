import type { CompiledScenario, StepResult } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import { buildRecords, type PendingFact } from '../lifecycle/build-records.js';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { Scope, StoredRun, StoreTransactionV1, TimerRow } from '../store/store-v1.js';
import { planTimers } from '../timers/timer-plan.js';
import { appendLifecycle, type Outbox } from '../webhooks/outbox.js';
import type { SandboxOptions } from '../timers/sandbox-partners.js';
import { buildRunRecord, statusOf } from './build-run-record.js';
import { FINAL_STATUSES, type ActivationPosture } from './run-record.js';
import { advanceStages, initialStages } from './stage-progress.js';

/** A new run's fixed attributes. */
export interface RunCreation {
  readonly idempotencyKey: string | null;
  readonly sessionId: string | null;
  readonly sourcePath: string | null;
  readonly inputs: JsonObject;
}

/** Input of {@link commitStep}. */
export interface CommitStepInput {
  readonly tx: StoreTransactionV1;
  readonly compiled: CompiledScenario;
  readonly scope: Scope;
  readonly runId: string;
  readonly now: Date;
  readonly result: StepResult;
  /** The run before this step; null when creating. */
  readonly previous: StoredRun | null;
  readonly creation?: RunCreation;
  /** Facts recorded before the machine's (e.g. `created`). */
  readonly leadingFacts?: readonly PendingFact[];
  /** The timer whose firing caused this step. */
  readonly firedTimerId?: string;
  /** The run's pending timers when the caller already read them in this transaction. */
  readonly pendingTimers?: readonly TimerRow[];
  readonly sandbox: SandboxOptions;
  /** Where the records' webhook events go, in the same transaction. */
  readonly outbox: Outbox;
  /** The run's activation posture; by default the previous record's (or none required). */
  readonly activation?: ActivationPosture;
}

/**
 * Writes one transition inside the caller's transaction: hash-chained lifecycle records
 * (with their webhook events in the outbox), timers for new deadlines (and cancellation of stale ones), and the run, inserted or
 * updated with compare-and-swap on its version.
 */
export async function commitStep(
  input: CommitStepInput,
): Promise<{ run: StoredRun; records: LifecycleRecord[] }> {
  const { tx, compiled, scope, runId, now, result, previous } = input;
  const nowIso = now.toISOString();
  const plan = planTimers({
    compiled,
    runId,
    account: scope.account,
    environment: scope.environment,
    now,
    facts: result.facts,
    context: result.snapshot.context,
    sandbox: input.sandbox,
  });
  const facts = [...(input.leadingFacts ?? []), ...plan.facts];
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
  const records = buildRecords(
    runId,
    { sequence: previous?.last_sequence ?? 0, hash: previous?.record.evidence.chain_head ?? null },
    nowIso,
    facts,
  );

  const awaiting = result.state.awaiting;
  const matchesAwaiting = (timer: { step: string; attempt: number }): boolean =>
    awaiting !== null && timer.step === awaiting.step && timer.attempt === awaiting.attempt;
  const existing = input.pendingTimers ?? (previous ? await tx.pendingTimers(runId) : []);
  const stale = existing.filter(
    (timer) => timer.id !== input.firedTimerId && !matchesAwaiting(timer),
  );
  const scheduled = plan.timers.filter(matchesAwaiting);
  const keptExisting = existing.filter(
    (timer) => timer.id !== input.firedTimerId && matchesAwaiting(timer),
  );

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
    pendingTimers: [...keptExisting, ...scheduled],
    chainHead: records.at(-1)?.hash ?? previous?.record.evidence.chain_head ?? null,
    sessionId: previous?.record.session_id ?? creation?.sessionId ?? null,
    sourcePath: previous?.record.source_path ?? creation?.sourcePath ?? null,
    inputs: previous?.record.inputs ?? creation?.inputs ?? {},
    createdAt: previous?.record.created_at ?? nowIso,
    updatedAt: nowIso,
    previous: previous?.record ?? null,
    ...(input.activation ? { activation: input.activation } : {}),
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
  };

  if (previous) await tx.updateRun(run, previous.version);
  else await tx.insertRun(run);
  await appendLifecycle(
    tx,
    scope,
    { id: runId, scenario_id: compiled.id, scenario_digest: compiled.digest },
    records,
    input.outbox,
  );
  if (scheduled.length > 0) await tx.scheduleTimers(scheduled);
  if (stale.length > 0)
    await tx.settleTimers(
      stale.map((timer) => timer.id),
      'cancelled',
    );
  if (input.firedTimerId !== undefined) await tx.settleTimers([input.firedTimerId], 'fired');
  return { run, records };
}
