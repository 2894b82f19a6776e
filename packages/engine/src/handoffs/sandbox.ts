import {
  parseDuration,
  type CompiledScenario,
  type RunContext,
  type RunEvent,
} from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import { deterministicId } from '../ids/deterministic-id.js';

/** How simulated counterparties behave in the test environment. */
export interface SandboxOptions {
  /**
   * Answer every handoff after this many milliseconds instead of the scenario's simulated
   * latency (the reference server uses a couple of seconds so demos move on their own).
   */
  readonly responseDelayMs?: number;
  /** Latency when neither the step nor its party declares one. @default 30000 */
  readonly defaultLatencyMs?: number;
}

function handoffOf(compiled: CompiledScenario, stepId: string) {
  const step = compiled.graph.steps.get(stepId)?.definition;
  return step?.kind === 'handoff' ? step : undefined;
}

/**
 * How long the simulated counterparty of a handoff takes to answer: the sandbox override,
 * else the step's or its party's `simulation.latency`, else the default.
 */
export function simulatedLatencyMs(
  compiled: CompiledScenario,
  stepId: string,
  options: SandboxOptions,
): number {
  if (options.responseDelayMs !== undefined) return options.responseDelayMs;
  const handoff = handoffOf(compiled, stepId);
  const party = handoff ? compiled.definition.parties[handoff.party] : undefined;
  const declared = handoff?.simulation?.latency ?? party?.simulation?.latency;
  return declared === undefined ? (options.defaultLatencyMs ?? 30_000) : parseDuration(declared);
}

/**
 * The simulated counterparty's answer to a handoff: `confirmed`, a reference derived from
 * the partner idempotency key, and the step's `simulation.data` evaluated against the run
 * (`failed`, with the error as data, when that data cannot be evaluated).
 * Computed when the answer arrives; the run cannot change while it waits on the handoff,
 * so the answer is the same as at request time. Same run, same answer.
 */
export function simulatedAnswer(
  compiled: CompiledScenario,
  stepId: string,
  idempotencyKey: string,
  attempt: number,
  context: RunContext,
  at: string,
): RunEvent {
  const data = compiled.evaluator.fields(
    handoffOf(compiled, stepId)?.simulation?.data ?? {},
    context,
  );
  return {
    type: 'handoff.outcome',
    step: stepId,
    // A simulated answer whose data cannot be computed is a failed execution, with the
    // reason in its data, rather than a confirmation missing the fields later steps read.
    outcome: data.ok ? 'confirmed' : 'failed',
    reference: deterministicId('sim', idempotencyKey, 24),
    data: (data.ok ? data.value : { error: `simulation.data ${data.error}` }) as JsonObject,
    attempt,
    at,
  };
}
