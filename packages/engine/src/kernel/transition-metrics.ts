import type { EngineContext } from '../engine-context.js';
import { FINAL_STATUSES, type RunStatus } from '../runs/run-record.js';
import type { Scope } from '../store/store-v1.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import type { EngineMetrics } from '../telemetry/engine-metrics.js';
import type { Transaction } from './transaction.js';

/**
 * What caused a transition: a run created, a signal (an approval, a partner's answer, a
 * cancel, an issuer activation), a timer, or a connector's (or the sandbox's) answer applied
 * by a handoff job.
 */
export type TransitionKind = 'create' | 'signal' | 'timer' | 'handoff' | 'upgrade';

/** One committed change of a run, as the metrics count it. */
export interface CountedTransition {
  readonly kind: TransitionKind;
  readonly scope: Scope;
  readonly scenarioId: string;
  /** The run's status before; null when it was created. */
  readonly before: RunStatus | null;
  readonly after: RunStatus;
}

/** The instruments transitions are counted on; undefined when telemetry is off. */
export const transitionMetrics = (context: EngineContext): EngineMetrics | undefined =>
  context.telemetry.enabled ? context.metrics : undefined;

/**
 * Counts a transition once its transaction commits (never for an attempt rolled back or
 * retried): transitions and their duration by kind, runs created (and their create
 * duration), and runs that reached a final status. Durations run from the unit of work's
 * first attempt, retries included.
 */
export function countTransition(
  metrics: EngineMetrics | undefined,
  transaction: Transaction,
  transition: CountedTransition,
): void {
  if (!metrics) return;
  transaction.afterCommit(() => {
    const { kind, scope, scenarioId, before, after } = transition;
    const seconds =
      transaction.startedAt === undefined
        ? undefined
        : (performance.now() - transaction.startedAt) / 1000;
    const attributes = {
      [ATTRIBUTES.scenarioId]: scenarioId,
      [ATTRIBUTES.environment]: scope.environment,
    };
    const ofKind = { ...attributes, [ATTRIBUTES.transitionKind]: kind };
    metrics.transitions.add(1, ofKind);
    if (seconds !== undefined) metrics.transitionDuration.record(seconds, ofKind);
    if (kind === 'create') {
      metrics.runsCreated.add(1, attributes);
      if (seconds !== undefined) metrics.createDuration.record(seconds, attributes);
    }
    if (FINAL_STATUSES.has(after) && !(before !== null && FINAL_STATUSES.has(before)))
      metrics.runsFinished.add(1, { ...attributes, [ATTRIBUTES.runStatus]: after });
  });
}
