import { ValueType, type Counter, type Histogram, type Meter } from '@opentelemetry/api';

/**
 * The engine's metric instruments, created once per engine. Names, units and attributes
 * are documented in docs/guides/observability.md; durations are in seconds (`s`), as the
 * OpenTelemetry semantic conventions ask. Backlogs and breaker states are observable
 * gauges registered where their values are read.
 */
export interface EngineMetrics {
  /** Runs created, by scenario and environment. */
  readonly runsCreated: Counter;
  /** Runs that reached a final status, by scenario, environment and status. */
  readonly runsFinished: Counter;
  /** Committed transitions, by scenario, environment and kind (create, signal, timer, handoff). */
  readonly transitions: Counter;
  /** Time to commit one transition (its whole transaction, retries included). */
  readonly transitionDuration: Histogram;
  /** Time to create one run (its whole transaction, retries included). */
  readonly createDuration: Histogram;
  /** Timers fired, by environment. */
  readonly timersFired: Counter;
  /** How late a timer fired: fired time minus due time, on its environment's clock. */
  readonly timerLag: Histogram;
  /** Connector calls, by party, environment and outcome (answered, accepted, transient, permanent, dropped). */
  readonly handoffCalls: Counter;
  /** Duration of one connector call, by party and outcome. */
  readonly handoffCallDuration: Histogram;
  /** Webhook delivery attempts, by environment and outcome (delivered, failed, retry). */
  readonly deliveryAttempts: Counter;
  /** Duration of one delivery attempt, by environment and outcome. */
  readonly deliveryDuration: Histogram;
  /** Store transactions that lost a compare-and-swap race and were retried. */
  readonly storeConflicts: Counter;
  /** Store transactions run, by outcome (committed, conflict, failed). */
  readonly storeTransactions: Counter;
}

/** The metric names, for docs and tests. */
export const METRIC_NAMES = {
  runsCreated: 'programrun.runs.created',
  runsFinished: 'programrun.runs.finished',
  transitions: 'programrun.transitions',
  transitionDuration: 'programrun.transition.duration',
  createDuration: 'programrun.run.create.duration',
  timersFired: 'programrun.timers.fired',
  timerLag: 'programrun.timer.lag',
  handoffCalls: 'programrun.handoff.calls',
  handoffCallDuration: 'programrun.handoff.call.duration',
  deliveryAttempts: 'programrun.webhook.delivery.attempts',
  deliveryDuration: 'programrun.webhook.delivery.duration',
  storeConflicts: 'programrun.store.conflicts',
  storeTransactions: 'programrun.store.transactions',
  timersDue: 'programrun.timers.due',
  outboxBacklog: 'programrun.webhook.deliveries.pending',
  handoffBacklog: 'programrun.handoff.jobs.queued',
  handoffInFlight: 'programrun.handoff.jobs.in_flight',
  breakerState: 'programrun.partner.breaker.state',
} as const;

/** Seconds buckets from 1 ms to 60 s: store commits, calls and deliveries. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Creates the engine's instruments on a meter. */
export function createEngineMetrics(meter: Meter): EngineMetrics {
  const counter = (name: string, description: string, unit: string) =>
    meter.createCounter(name, { description, unit, valueType: ValueType.INT });
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, {
      description,
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS },
    });
  return {
    runsCreated: counter(METRIC_NAMES.runsCreated, 'Runs created', '{run}'),
    runsFinished: counter(METRIC_NAMES.runsFinished, 'Runs that reached a final status', '{run}'),
    transitions: counter(METRIC_NAMES.transitions, 'Committed transitions', '{transition}'),
    transitionDuration: seconds(METRIC_NAMES.transitionDuration, 'Time to commit one transition'),
    createDuration: seconds(METRIC_NAMES.createDuration, 'Time to create one run'),
    timersFired: counter(METRIC_NAMES.timersFired, 'Timers fired', '{timer}'),
    timerLag: seconds(METRIC_NAMES.timerLag, 'How late timers fired after falling due'),
    handoffCalls: counter(METRIC_NAMES.handoffCalls, 'Connector calls', '{call}'),
    handoffCallDuration: seconds(METRIC_NAMES.handoffCallDuration, 'Duration of connector calls'),
    deliveryAttempts: counter(
      METRIC_NAMES.deliveryAttempts,
      'Webhook delivery attempts',
      '{attempt}',
    ),
    deliveryDuration: seconds(
      METRIC_NAMES.deliveryDuration,
      'Duration of webhook delivery attempts',
    ),
    storeConflicts: counter(
      METRIC_NAMES.storeConflicts,
      'Store transactions retried after a compare-and-swap conflict',
      '{transaction}',
    ),
    storeTransactions: counter(
      METRIC_NAMES.storeTransactions,
      'Store transactions run',
      '{transaction}',
    ),
  };
}
