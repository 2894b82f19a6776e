import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import { answeredAttempt } from '../handoffs/partner-key.js';
import { applyEventTo, type AppliedEvent } from '../kernel/apply-event.js';
import { loadRunForTransition, scenarioOfRun } from '../kernel/load-run.js';
import { describeRun, inRunSpan, SIGNAL_SPAN } from '../kernel/run-span.js';
import type { Transaction } from '../kernel/transaction.js';
import { countTransition, transitionMetrics } from '../kernel/transition-metrics.js';
import { appendLifecycle } from '../lifecycle/append-lifecycle.js';
import { readRunRecord } from '../runs/run-overlays.js';
import type { RunRecord } from '../runs/run-record.js';
import { cancelSuspendedRun } from '../runs/suspended-run.js';
import type { Scope, StoredRun } from '../store/store-v1.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import { explainRefusal } from './explain-refusal.js';
import { toRunEvent, type Signal } from './signal.js';

/** Result of a signal; `applied` is false for a duplicate of what is already recorded. */
export interface SignalResult {
  readonly run: RunRecord;
  readonly applied: boolean;
}

/** A run held in intake accepts only a cancel (nothing ran, so nothing to undo). */
async function signalSuspended(
  context: EngineContext,
  transaction: Transaction,
  scope: Scope,
  run: StoredRun,
  signal: Signal,
  at: string,
): Promise<StoredRun> {
  const compiled = scenarioOfRun(context.catalogue, run);
  if (signal.kind !== 'cancel') {
    throw new EngineError(
      'run_suspended',
      `The run is suspended in intake until account ${scope.account} has an issuer activation for ${compiled.definition.scenario}; only cancel is accepted.`,
    );
  }
  const cancelled = cancelSuspendedRun(run, signal.reason ?? 'requested', at);
  await transaction.tx.updateRun(cancelled.run, run.version);
  await appendLifecycle(
    transaction,
    scope,
    { id: run.id, scenario_id: compiled.id, scenario_digest: compiled.digest },
    cancelled.records,
    context.deliveries,
    run.trace_context,
  );
  countTransition(transitionMetrics(context), transaction, {
    kind: 'signal',
    scope,
    scenarioId: compiled.id,
    before: run.status,
    after: cancelled.run.status,
  });
  return cancelled.run;
}

/** What a signal is about, on its span: its kind and step (never its data). */
const describeSignal = (signal: Signal) => () => ({
  [ATTRIBUTES.signalKind]: signal.kind,
  ...(signal.kind === 'cancel' ? {} : { [ATTRIBUTES.step]: signal.step }),
});

/**
 * Applies an approval, a partner answer or a cancel inside the caller's transaction. A
 * repeat of what is already recorded answers the run unchanged (`applied: false`);
 * anything else the run does not accept throws an `EngineError` saying why. It runs in a
 * `programrun.run.signal` span of the run's trace (the caller's, linked, when the caller
 * brought its own).
 */
export async function applySignal(
  context: EngineContext,
  transaction: Transaction,
  scope: Scope,
  runId: string,
  signal: Signal,
): Promise<SignalResult> {
  const { tx } = transaction;
  const loaded = await loadRunForTransition(tx, scope, runId);
  return inRunSpan(context, SIGNAL_SPAN, loaded.run, describeSignal(signal), async (span) => {
    const outcome = await applyEventTo(
      context,
      transaction,
      scope,
      loaded,
      (run, at) => toRunEvent(signal, at, answeredAttempt(run, signal)),
      {
        onSuspended: (within, run, at) => signalSuspended(context, within, scope, run, signal, at),
      },
    );
    const result = await signalResult(context, tx, scope, outcome, signal);
    describeRun(span, result.run);
    if (span.isRecording())
      span.setAttribute(ATTRIBUTES.outcome, result.applied ? 'applied' : 'duplicate');
    return result;
  });
}

/** The run after an applied signal; unchanged for a duplicate; a refusal otherwise. */
async function signalResult(
  context: EngineContext,
  tx: Transaction['tx'],
  scope: Scope,
  outcome: AppliedEvent,
  signal: Signal,
): Promise<SignalResult> {
  if (outcome.accepted)
    return {
      run: await readRunRecord(context, tx, scope, outcome.run, outcome.awaitedJob),
      applied: true,
    };
  const verdict = explainRefusal(
    scenarioOfRun(context.catalogue, outcome.before),
    outcome.before,
    signal,
  );
  if (verdict.duplicate)
    return { run: await readRunRecord(context, tx, scope, outcome.before), applied: false };
  throw new EngineError(verdict.code, verdict.message);
}
