import type {
  HandoffAnswer,
  HandoffConnector,
  HandoffRequest,
} from '../connectors/handoff-contract.js';
import type { HandoffJobRow } from '../store/store-v1.js';
import { checkConnectorValue } from './validate-answer.js';

/** Why a call failed, as the worker records it. */
export interface CallError {
  /** `timeout`, `connection`, `http_5xx`, … for transient; the permanent reason; or `thrown`. */
  readonly class: string;
  readonly message: string;
  readonly status: number | null;
  /**
   * The least wait before the next call (ms), from a thrown `TransientConnectorError`'s
   * `retryAfterMs` (e.g. the partner's `Retry-After`); absent or null when it gave none.
   * Only the retry plan reads it: it is not stored in the job's `last_error`.
   */
  readonly retry_after_ms?: number | null;
}

/** What one connector call came to. */
export type CallResult =
  | { readonly kind: 'answer'; readonly answer: HandoffAnswer }
  | { readonly kind: 'accepted' }
  | { readonly kind: 'transient'; readonly error: CallError }
  | { readonly kind: 'permanent'; readonly error: CallError };

/** A connector error from any installed copy of the engine, by its code. */
const connectorError = (error: unknown, code: string): Record<string, unknown> | undefined =>
  error instanceof Error && (error as { code?: unknown }).code === code
    ? (error as unknown as Record<string, unknown>)
    : undefined;

const statusOf = (error: Record<string, unknown>): number | null =>
  typeof error.status === 'number' ? error.status : null;

/** A connector's `retryAfterMs`, when it is a finite, non-negative number. */
const retryAfterOf = (error: Record<string, unknown>): number | null =>
  typeof error.retryAfterMs === 'number' &&
  Number.isFinite(error.retryAfterMs) &&
  error.retryAfterMs >= 0
    ? error.retryAfterMs
    : null;

/**
 * The error's message as the job keeps it: at most 1,000 UTF-16 units, with a surrogate
 * pair the cut split, any other lone surrogate and any NUL made U+FFFD, so whatever a
 * connector or partner put in its message, every store keeps the failed call's row.
 */
const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error))
    .slice(0, 1_000)
    .toWellFormed()
    .replaceAll('\u0000', '\uFFFD');

/** How a thrown error is treated: retried unless the connector said it is permanent. */
export function classifyThrown(error: unknown, aborted: boolean): CallResult {
  const permanent = connectorError(error, 'connector_permanent');
  if (permanent) {
    const reason = typeof permanent.reason === 'string' ? permanent.reason : 'permanent';
    const error_ = { class: reason, message: messageOf(error), status: statusOf(permanent) };
    return { kind: 'permanent', error: error_ };
  }
  const transient = connectorError(error, 'connector_transient');
  const errorClass = transient
    ? typeof transient.errorClass === 'string'
      ? transient.errorClass
      : 'transient'
    : aborted
      ? 'timeout'
      : 'thrown';
  const status = transient ? statusOf(transient) : null;
  const message =
    !transient && aborted
      ? 'The call outlived its lease or the handoff deadline and was aborted.'
      : messageOf(error);
  const retryAfterMs = transient ? retryAfterOf(transient) : null;
  return {
    kind: 'transient',
    error:
      retryAfterMs === null
        ? { class: errorClass, message, status }
        : { class: errorClass, message, status, retry_after_ms: retryAfterMs },
  };
}

/** What a resolved value comes to: an answer, accepted, or an invalid answer (retried). */
function classifyValue(value: unknown): CallResult {
  const checked = checkConnectorValue(value);
  if (!checked.ok) {
    const message = `The connector's answer is invalid: ${checked.problem}.`;
    return { kind: 'transient', error: { class: 'invalid_answer', message, status: null } };
  }
  return checked.value === 'accepted'
    ? { kind: 'accepted' }
    : { kind: 'answer', answer: checked.value };
}

/**
 * Calls a connector for a claimed job with an AbortSignal that fires after `abortAfterMs`
 * (when the lease or the handoff deadline ends, whichever is first). A call still running
 * then counts as a `timeout`: its late result is never used. `stop` (the host is stopping)
 * aborts it too, and then `stopped` is true: the result is not the partner's to record.
 * Never throws.
 */
export async function callConnector(
  connector: HandoffConnector,
  job: HandoffJobRow,
  abortAfterMs: number,
  stop?: AbortSignal,
): Promise<{
  readonly result: CallResult;
  readonly durationMs: number;
  readonly stopped: boolean;
}> {
  const controller = new AbortController();
  // One signal per call for both causes: `AbortSignal.any` adds no listener to `stop`, so
  // any number of calls in flight may share it.
  const signal = stop ? AbortSignal.any([controller.signal, stop]) : controller.signal;
  const aborted = new Promise<never>((_resolve, reject) =>
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
  );
  const timer = setTimeout(() => controller.abort(), Math.max(0, abortAfterMs));
  const started = performance.now();
  const context = {
    signal,
    attempt: job.calls,
    deadline: new Date(job.deadline),
    idempotencyKey: job.idempotency_key,
  };
  let result: CallResult;
  let stopped = false;
  try {
    const call = Promise.resolve().then(() =>
      connector(job.request as unknown as HandoffRequest, context),
    );
    result = classifyValue(await Promise.race([call, aborted]));
  } catch (error) {
    result = classifyThrown(error, signal.aborted);
    stopped = stop?.aborted === true;
  } finally {
    clearTimeout(timer);
  }
  return { result, durationMs: Math.round(performance.now() - started), stopped };
}
