import { parseDuration, type CompiledScenario, type RunContext } from '@programrun/dsl';
import { sha256Digest, type JsonObject } from '@programrun/evidence';

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

/** A simulated partner's answer: when it arrives and what it says. */
export interface SimulatedResponse {
  readonly latencyMs: number;
  readonly payload: JsonObject;
}

/**
 * The simulated counterparty's answer to a handoff: `confirmed`, a deterministic reference
 * derived from the partner idempotency key, and the step's `simulation.data` evaluated
 * against the run. Same run, same answer: test runs are reproducible.
 *
 * @example
 * ```ts
 * simulatedResponse(compiled, 'screen_destination', 'pik_…', context, {}).payload;
 * // { outcome: 'confirmed', reference: 'sim_…', data: { risk: 'low' } }
 * ```
 */
export function simulatedResponse(
  compiled: CompiledScenario,
  stepId: string,
  idempotencyKey: string,
  context: RunContext,
  options: SandboxOptions,
): SimulatedResponse {
  const step = compiled.graph.steps.get(stepId)?.definition;
  const handoff = step?.kind === 'handoff' ? step : undefined;
  const party = handoff ? compiled.definition.parties[handoff.party] : undefined;
  const declared = handoff?.simulation?.latency ?? party?.simulation?.latency;
  const latencyMs =
    options.responseDelayMs ??
    (declared === undefined ? (options.defaultLatencyMs ?? 30_000) : parseDuration(declared));
  const data = compiled.evaluator.fields(handoff?.simulation?.data ?? {}, context);
  return {
    latencyMs,
    payload: {
      outcome: 'confirmed',
      reference: `sim_${sha256Digest(idempotencyKey).slice(7, 31)}`,
      data: (data.ok ? data.value : {}) as JsonObject,
    },
  };
}
