import type { CompiledScenario } from '@programrun/dsl';
import type { AwaitingRecord, HandoffSignal, LifecycleRecord } from '@programrun/engine';
import type { PartnerOutcome } from './signal-plan.js';

/** A handoff the run asked a partner for: one `handoff.requested` record. */
export interface RequestedHandoff {
  readonly step: string;
  readonly attempt: number;
  /** The `pik_…` idempotency key the partner was given for this attempt. */
  readonly key: string;
}

/** A key no run ever gives out: answers carrying it name no attempt. */
const FOREIGN_KEY = `pik_${'0'.repeat(32)}`;

/**
 * The handoff request a lifecycle record makes, or undefined for any other record.
 *
 * @example
 * ```ts
 * records.flatMap((record) => requestedHandoff(record) ?? []); // every attempt asked for
 * ```
 */
export function requestedHandoff(record: LifecycleRecord): RequestedHandoff | undefined {
  if (record.type !== 'program_run.handoff.requested' || record.step === null) return undefined;
  const { attempt, idempotency_key: key } = record.data;
  return {
    step: record.step,
    attempt: typeof attempt === 'number' ? attempt : 1,
    key: typeof key === 'string' ? key : FOREIGN_KEY,
  };
}

const pendingHandoff = (awaiting: AwaitingRecord | null): string | undefined =>
  awaiting?.kind === 'handoff' ? awaiting.step : undefined;

/**
 * A late partner answer: for the most recent handoff the run asked for and no longer
 * waits on (it timed out, was answered, or the run moved on or ended), carrying that
 * attempt's own idempotency key. Undefined when no such handoff was ever requested.
 *
 * @example
 * ```ts
 * lateAnswer(requested, run.awaiting, 'confirmed'); // { kind: 'handoff', step: 'screen', idempotency_key: 'pik_…', … }
 * ```
 */
export function lateAnswer(
  requested: readonly RequestedHandoff[],
  awaiting: AwaitingRecord | null,
  outcome: PartnerOutcome,
): HandoffSignal | undefined {
  const pending = pendingHandoff(awaiting);
  const target = requested.findLast((request) => request.step !== pending);
  if (!target) return undefined;
  return {
    kind: 'handoff',
    step: target.step,
    outcome,
    reference: `late-${target.step}-${target.attempt}`,
    idempotency_key: target.key,
    data: {},
  };
}

/**
 * An out-of-order partner answer. `other_step`: an answer for a handoff step the run is
 * not waiting on, preferably one it has not asked for yet (an answer that overtook its
 * request). `old_attempt`: an answer for the pending handoff carrying the key of an
 * earlier attempt of it, or else another step's key (crossed wires); with no handoff
 * pending, an answer for the last one requested. Undefined when the scenario has no
 * handoff to address.
 *
 * @example
 * ```ts
 * outOfOrderAnswer(compiled, requested, run.awaiting, 'old_attempt', 'confirmed');
 * ```
 */
export function outOfOrderAnswer(
  compiled: CompiledScenario,
  requested: readonly RequestedHandoff[],
  awaiting: AwaitingRecord | null,
  variant: 'other_step' | 'old_attempt',
  outcome: PartnerOutcome,
): HandoffSignal | undefined {
  const pending = pendingHandoff(awaiting);
  if (variant === 'other_step') {
    const asked = new Set(requested.map((request) => request.step));
    const handoffs = [...compiled.graph.steps.values()]
      .filter((step) => step.kind === 'handoff' && step.id !== pending)
      .map((step) => step.id);
    const target = handoffs.find((id) => !asked.has(id)) ?? handoffs[0];
    if (target === undefined) return undefined;
    return { kind: 'handoff', step: target, outcome, reference: `early-${target}`, data: {} };
  }
  if (pending === undefined) {
    const last = requested.at(-1);
    if (!last) return undefined;
    return {
      kind: 'handoff',
      step: last.step,
      outcome,
      reference: `stale-${last.step}-${last.attempt}`,
      idempotency_key: last.key,
      data: {},
    };
  }
  const attempts = requested.filter((request) => request.step === pending);
  const key =
    attempts.at(-2)?.key ??
    requested.findLast((request) => request.step !== pending)?.key ??
    FOREIGN_KEY;
  return {
    kind: 'handoff',
    step: pending,
    outcome,
    reference: `stale-${pending}`,
    idempotency_key: key,
    data: {},
  };
}
