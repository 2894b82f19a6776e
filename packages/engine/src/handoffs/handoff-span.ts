import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { HandoffOutcome } from '../connectors/handoff-contract.js';
import type { EngineContext } from '../engine-context.js';
import type { HandoffJobRow } from '../store/store-v1.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import type { CallResult } from './call-connector.js';

/** The span of one connector call (a live call, or a simulated answer in the test environment). */
export const HANDOFF_CALL_SPAN = 'programrun.handoff.call';

/** True on the span of a sandbox (simulated) answer. */
export const SIMULATED_ATTRIBUTE = ATTRIBUTES.handoffSimulated;

/** The outcome of the partner's answer (`confirmed`, `rejected`, `failed`) when it answered. */
export const ANSWER_ATTRIBUTE = ATTRIBUTES.handoffAnswer;

/**
 * What a connector call came to, as its span and metrics say it: an answer, accepted (the
 * callback will answer), a transient or permanent failure, or dropped (the worker no longer
 * held the call when it settled, or the run no longer waited on it).
 */
export type HandoffCallOutcome = 'answered' | 'accepted' | 'transient' | 'permanent' | 'dropped';

/** The outcome of a call's result, before it is settled. */
export function callOutcome(result: CallResult): HandoffCallOutcome {
  return result.kind === 'answer' ? 'answered' : result.kind;
}

/**
 * Where the span of a call of `job` goes (in the run's trace) and how it starts: CLIENT for
 * a live connector, INTERNAL for the test environment's simulated partner.
 */
export function handoffSpanStart(context: EngineContext, job: HandoffJobRow, simulated: boolean) {
  const { parent, links } = context.telemetry.runParent(job.trace_context);
  return { kind: simulated ? SpanKind.INTERNAL : SpanKind.CLIENT, parent, links };
}

/** Names the job on its call's span (only when the span records). */
export function describeCall(span: Span, job: HandoffJobRow, simulated: boolean): void {
  if (!span.isRecording()) return;
  span.setAttributes({
    [ATTRIBUTES.runId]: job.run_id,
    [ATTRIBUTES.step]: job.step,
    [ATTRIBUTES.party]: job.party,
    [ATTRIBUTES.account]: job.account,
    [ATTRIBUTES.environment]: job.environment,
    [ATTRIBUTES.call]: job.calls,
    [ATTRIBUTES.handoffJob]: job.id,
    // The partner idempotency key is an identifier both sides log, never a secret.
    [ATTRIBUTES.idempotencyKey]: job.idempotency_key,
    ...(simulated ? { [SIMULATED_ATTRIBUTE]: true } : {}),
  });
}

/** What a finished call reports: its outcome, the answer's, and why it failed. */
export interface CallReport {
  readonly outcome: HandoffCallOutcome;
  readonly answer?: HandoffOutcome;
  readonly errorClass?: string;
  /** The call's duration (s); absent for a simulated answer (no call was made). */
  readonly seconds?: number;
}

/** Sets the call's outcome on its span and counts it (and its duration) by party, environment and outcome. */
export function reportCall(
  context: EngineContext,
  span: Span,
  job: HandoffJobRow,
  report: CallReport,
): void {
  if (span.isRecording()) {
    span.setAttribute(ATTRIBUTES.outcome, report.outcome);
    if (report.answer !== undefined) span.setAttribute(ANSWER_ATTRIBUTE, report.answer);
    if (report.errorClass !== undefined) {
      span.setAttribute(ATTRIBUTES.errorClass, report.errorClass);
      span.setStatus({ code: SpanStatusCode.ERROR, message: report.errorClass });
    }
  }
  const attributes = {
    [ATTRIBUTES.party]: job.party,
    [ATTRIBUTES.environment]: job.environment,
    [ATTRIBUTES.outcome]: report.outcome,
  };
  context.metrics.handoffCalls.add(1, attributes);
  if (report.seconds !== undefined)
    context.metrics.handoffCallDuration.record(report.seconds, attributes);
}

/** The report of a live call's result; `written` false when its settle was dropped. */
export function liveCallReport(
  result: CallResult,
  written: boolean | undefined,
  seconds: number,
): CallReport {
  return {
    outcome: written === false ? 'dropped' : callOutcome(result),
    seconds,
    ...(result.kind === 'answer' ? { answer: result.answer.outcome } : {}),
    ...(result.kind === 'transient' || result.kind === 'permanent'
      ? { errorClass: result.error.class }
      : {}),
  };
}
