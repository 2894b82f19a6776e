import { ProgramrunError } from '@programrun/evidence';

/**
 * Why an attempt failed in a way worth retrying (same `pik_` key, with backoff):
 * `timeout` (the signal, `timeoutMs` or the deadline; also a 408), `connection` (DNS,
 * connect, TLS, a dropped connection), `http_5xx`, `rate_limited` (429), `in_progress`
 * (409 without a stored answer: the partner is still working on the key) and
 * `invalid_answer` (a 200 or 409 whose body is not a valid answer).
 */
export type TransientErrorClass =
  'timeout' | 'connection' | 'http_5xx' | 'rate_limited' | 'in_progress' | 'invalid_answer';

/**
 * Why an attempt failed for good (retrying cannot help): `forbidden_address`,
 * `invalid_url`, `https_required`, `credentials_in_url` (the partner URL),
 * `redirect` (a 3xx: connectors never follow redirects), `http_4xx` (any other 4xx),
 * `invalid_request` (the handoff itself: a context key that is not its `pik_` key, or
 * data that is not JSON).
 */
export type PermanentErrorReason =
  | 'forbidden_address'
  | 'invalid_url'
  | 'https_required'
  | 'credentials_in_url'
  | 'redirect'
  | 'http_4xx'
  | 'invalid_request';

/**
 * A failed attempt to retry later with the same idempotency key. Code
 * `connector_transient`; `errorClass` says why. `retryAfterMs`, when set, is how long the
 * partner asked to be left alone (e.g. its `Retry-After`): the next call waits at least
 * that long, and the job is exhausted when that wait does not end before the deadline.
 *
 * @example
 * ```ts
 * try {
 *   await connector(request, context);
 * } catch (error) {
 *   if (error instanceof TransientConnectorError) retryLater(error.errorClass);
 * }
 * // A partner that answered 429 with `Retry-After: 30`:
 * throw new TransientConnectorError('rate_limited', 'The partner answered 429.', 429, 30_000);
 * ```
 */
export class TransientConnectorError extends ProgramrunError {
  readonly errorClass: TransientErrorClass;
  /** The HTTP status, when the partner answered. */
  readonly status: number | null;
  /** The least time to wait before the next call (ms), when the partner said; else null. */
  readonly retryAfterMs: number | null;

  constructor(
    errorClass: TransientErrorClass,
    message: string,
    status: number | null = null,
    retryAfterMs: number | null = null,
  ) {
    super('connector_transient', message);
    this.errorClass = errorClass;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * A failed attempt that retrying cannot fix (code `connector_permanent`): the partner
 * refused the request itself (a 4xx, with its status and the first 1 KiB of its body as
 * `problem`), or the connector's configuration or the handoff is wrong.
 *
 * @example
 * ```ts
 * try {
 *   await connector(request, context);
 * } catch (error) {
 *   if (error instanceof PermanentConnectorError && error.reason === 'http_4xx') alert(error.problem);
 * }
 * ```
 */
export class PermanentConnectorError extends ProgramrunError {
  readonly reason: PermanentErrorReason;
  readonly status: number | null;
  /** The partner's explanation (its response body, at most 1 KiB), when it answered. */
  readonly problem: string | null;

  constructor(
    reason: PermanentErrorReason,
    message: string,
    details: { readonly status?: number; readonly problem?: string } = {},
  ) {
    super('connector_permanent', message);
    this.reason = reason;
    this.status = details.status ?? null;
    this.problem = details.problem ?? null;
  }
}
