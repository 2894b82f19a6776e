import {
  parseDuration,
  type CompiledScenario,
  type RunContext,
  type RunEvent,
  type SignalSender,
} from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import type { HandoffAnswer, HandoffRequest } from '../connectors/handoff-contract.js';
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

/** What the sandbox connector is asked: the handoff, and the run it answers. */
export interface SandboxCall {
  readonly request: Pick<HandoffRequest, 'step' | 'idempotency_key'>;
  readonly compiled: CompiledScenario;
  /** The run's context when the answer is applied (the same as at request time). */
  readonly context: RunContext;
}

/**
 * The sandbox connector: the simulated counterparty of the test environment, shaped like a
 * `HandoffConnector` but answering from the run itself, inside the transaction that applies
 * the answer. It answers `confirmed`, a reference derived from the partner idempotency key,
 * and the step's `simulation.data` evaluated against the run (`failed`, with the error as
 * data, when that data cannot be evaluated). The run cannot change while it waits on the
 * handoff, so the answer is the same as at request time. Same run, same answer.
 */
export function sandboxConnector(call: SandboxCall): HandoffAnswer {
  const { request, compiled } = call;
  const data = compiled.evaluator.fields(
    handoffOf(compiled, request.step)?.simulation?.data ?? {},
    call.context,
  );
  return {
    // A simulated answer whose data cannot be computed is a failed execution, with the
    // reason in its data, rather than a confirmation missing the fields later steps read.
    outcome: data.ok ? 'confirmed' : 'failed',
    reference: deterministicId('sim', request.idempotency_key, 24),
    data: (data.ok ? data.value : { error: `simulation.data ${data.error}` }) as JsonObject,
  };
}

/**
 * The machine event of a partner's answer to attempt `attempt` of a handoff step, at `at`;
 * `answeredBy` names who answered (none for the sandbox).
 */
export function answerEvent(
  step: string,
  attempt: number,
  answer: HandoffAnswer,
  at: string,
  answeredBy?: SignalSender,
): RunEvent {
  return {
    type: 'handoff.outcome',
    step,
    outcome: answer.outcome,
    reference: answer.reference,
    data: answer.data ?? {},
    attempt,
    ...(answeredBy ? { answered_by: answeredBy } : {}),
    at,
  };
}

/**
 * The simulated counterparty's answer to a handoff as a machine event (what a legacy
 * `partner_response` timer applies): {@link sandboxConnector}'s answer.
 */
export function simulatedAnswer(
  compiled: CompiledScenario,
  stepId: string,
  idempotencyKey: string,
  attempt: number,
  context: RunContext,
  at: string,
): RunEvent {
  const request = { step: stepId, idempotency_key: idempotencyKey };
  return answerEvent(stepId, attempt, sandboxConnector({ request, compiled, context }), at);
}
