import type { Attributes } from '@opentelemetry/api';
import type { CompiledScenario, RunEvent } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import type { PendingFact } from '../lifecycle/build-records.js';
import { FINAL_STATUSES } from '../runs/run-record.js';
import { StoreError } from '../store/store-error.js';
import type {
  HandoffJobSettle,
  RunForTransition,
  Scope,
  StoredRun,
  TimerRow,
} from '../store/store-v1.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import { commitTransition, type AwaitedJob } from './commit-transition.js';
import { isStarted, loadRunForTransition, scenarioOfRun, type StartedRun } from './load-run.js';
import { describeRun, inRunSpan } from './run-span.js';
import type { Transaction } from './transaction.js';
import { transitionMetrics, type TransitionKind } from './transition-metrics.js';

/** What applying an event came to. */
export interface AppliedEvent {
  /** The run after the event (unchanged when not accepted). */
  readonly run: StoredRun;
  /** Whether the machine accepted the event and the transition was committed. */
  readonly accepted: boolean;
  /** The run as it was loaded, before the event. */
  readonly before: StoredRun;
  /** What the transition knows of the awaited handoff's job (see {@link AwaitedJob}). */
  readonly awaitedJob?: AwaitedJob;
}

/** Options of {@link applyEvent}. */
export interface ApplyEventOptions {
  /** The timer whose firing this is: applied at most once, settled either way. */
  readonly firedTimer?: TimerRow;
  /**
   * The handoff job whose call this settles: its next row is written with the transition,
   * fenced on the worker's lease (`lease_lost` when another worker took the call over).
   */
  readonly settledJob?: HandoffJobSettle;
  /** Records written before the machine's (a connector call's `handoff.attempted`). */
  readonly leadingFacts?: (compiled: CompiledScenario) => readonly PendingFact[];
  /** A run still suspended in intake goes here instead of to `buildEvent`. */
  readonly onSuspended?: (
    transaction: Transaction,
    run: StoredRun,
    at: string,
  ) => Promise<StoredRun>;
  /**
   * A span of the run (in its trace) the event is applied in, started once the run is
   * loaded and a fired timer found still pending; `describe` names what the event is about.
   */
  readonly span?: { readonly name: string; readonly describe: () => Attributes };
}

/**
 * The conflict that has the unit of work read a cached run again (`RunForTransition.cached`):
 * retried like a lost compare-and-swap, with the store's own read this time.
 */
const readAgain = (runId: string): StoreError =>
  new StoreError(
    'version_conflict',
    `run ${runId} was taken from the store's cache; read it again`,
  );

/**
 * The event `build` makes of the loaded run: a refusal it throws (a key the run never gave,
 * an approver it does not expect) is only believed of a run the store read, not of one it
 * had cached, which is read again instead.
 */
function eventFor(loaded: RunForTransition, build: () => RunEvent | null): RunEvent | null {
  if (!loaded.cached) return build();
  try {
    return build();
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw readAgain(loaded.run.id);
  }
}

/** What caused an event, as the transition metrics count it. */
const kindOf = (options: ApplyEventOptions): TransitionKind =>
  options.firedTimer ? 'timer' : options.settledJob === undefined ? 'signal' : 'handoff';

/**
 * Applies one event to a run inside the caller's transaction: loads the run (with its
 * pending timers and the account's test clock, in one read), checks its scenario digest,
 * asks the pure machine for the transition and commits it. `buildEvent` sees only started
 * runs at the scope's current time; a run that has finished, or refuses the event, is
 * returned unchanged (`accepted: false`).
 */
export async function applyEvent(
  context: EngineContext,
  transaction: Transaction,
  scope: Scope,
  runId: string,
  buildEvent: (run: StartedRun, at: string) => RunEvent | null,
  options: ApplyEventOptions = {},
): Promise<AppliedEvent> {
  const loaded = await loadRunForTransition(transaction.tx, scope, runId);
  return applyEventTo(context, transaction, scope, loaded, buildEvent, options);
}

/** {@link applyEvent} to a run the caller loaded in this transaction. */
export async function applyEventTo(
  context: EngineContext,
  transaction: Transaction,
  scope: Scope,
  loaded: RunForTransition,
  buildEvent: (run: StartedRun, at: string) => RunEvent | null,
  options: ApplyEventOptions = {},
): Promise<AppliedEvent> {
  const { firedTimer, span } = options;
  const { run } = loaded;
  // Another host may have fired this timer since it was claimed (its lease ended):
  // a timer that is no longer pending is never applied twice.
  if (firedTimer && !loaded.pendingTimers.some((timer) => timer.id === firedTimer.id)) {
    if (loaded.cached) throw readAgain(run.id);
    return { run, accepted: false, before: run };
  }
  if (!span) return transition(context, transaction, scope, loaded, buildEvent, options);
  return inRunSpan(context, span.name, run, span.describe, async (runSpan) => {
    const applied = await transition(context, transaction, scope, loaded, buildEvent, options);
    describeRun(runSpan, applied.run.record);
    if (runSpan.isRecording())
      runSpan.setAttribute(ATTRIBUTES.outcome, applied.accepted ? 'applied' : 'refused');
    return applied;
  });
}

/** The event applied to the loaded run (whose fired timer, if any, is still pending). */
async function transition(
  context: EngineContext,
  transaction: Transaction,
  scope: Scope,
  loaded: RunForTransition,
  buildEvent: (run: StartedRun, at: string) => RunEvent | null,
  options: ApplyEventOptions,
): Promise<AppliedEvent> {
  const { tx } = transaction;
  const { firedTimer } = options;
  const { run } = loaded;
  const compiled = scenarioOfRun(context.catalogue, run);
  const now = context.clocks.nowWith(scope, loaded.testClock);
  if (!isStarted(run) && !FINAL_STATUSES.has(run.status) && options.onSuspended) {
    if (loaded.cached) throw readAgain(run.id);
    const changed = await options.onSuspended(transaction, run, now.toISOString());
    return { run: changed, accepted: true, before: run };
  }
  const event =
    FINAL_STATUSES.has(run.status) || !isStarted(run)
      ? null
      : eventFor(loaded, () => buildEvent(run, now.toISOString()));
  const result = event && isStarted(run) ? compiled.transition(run.snapshot, event) : null;
  if (!result?.accepted) {
    // A run the store had cached may be behind: it is read again before anything is
    // refused or settled on its account.
    if (loaded.cached) throw readAgain(run.id);
    if (firedTimer) await tx.settleTimers([firedTimer.id], 'cancelled');
    return { run, accepted: false, before: run };
  }
  const committed = await commitTransition({
    transaction,
    compiled,
    scope,
    runId: run.id,
    now,
    result,
    previous: run,
    sandbox: context.sandbox,
    handoffs: context.handoffs,
    deliveries: context.deliveries,
    ...(firedTimer ? { firedTimerId: firedTimer.id } : {}),
    ...(options.settledJob === undefined ? {} : { settledJob: options.settledJob }),
    ...(options.leadingFacts ? { leadingFacts: options.leadingFacts(compiled) } : {}),
    pendingTimers: loaded.pendingTimers,
    kind: kindOf(options),
    metrics: transitionMetrics(context),
  });
  return {
    run: committed.run,
    accepted: true,
    before: run,
    awaitedJob: committed.awaitedJob,
  };
}
