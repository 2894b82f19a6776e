/**
 * What is logged of a request answered `5xx`: one structured line a host can ship as is.
 * `error` describes what was thrown (never sent to the caller); absent when the 5xx was
 * answered without an exception.
 */
export interface ErrorLogEntry {
  readonly level: 'error';
  readonly message: 'request failed';
  readonly request_id: string;
  readonly method: string;
  /** The path, without the query string. */
  readonly path: string;
  /** The matched route's template, e.g. `/v1/program-runs/{id}`; null when none matched. */
  readonly route: string | null;
  readonly status: number;
  /** The trace id of the request's server span; null without one (telemetry off, no SDK). */
  readonly trace_id: string | null;
  /** The problem `code` answered, e.g. `internal_error`. */
  readonly code: string | null;
  readonly error?: {
    readonly name: string;
    readonly message: string;
    readonly stack?: string;
    /** The message of its `cause`, e.g. the database error under a store error. */
    readonly cause?: string;
  };
}

/** What is logged of every request when an access log is on: one line per request. */
export interface AccessLogEntry {
  readonly level: 'info';
  readonly message: 'request';
  readonly request_id: string;
  readonly method: string;
  /** The path, without the query string. */
  readonly path: string;
  /** The matched route's template, e.g. `/v1/program-runs/{id}`; null when none matched. */
  readonly route: string | null;
  readonly status: number;
  readonly duration_ms: number;
  /** The authenticated account; null for public routes and refused credentials. */
  readonly account: string | null;
  /** The id of the credential that authenticated (never its secret); null like `account`. */
  readonly credential_id: string | null;
  /** The trace id of the request's server span; null without one (telemetry off, no SDK). */
  readonly trace_id: string | null;
}

/**
 * A structured logger the handler writes its lines to: every request at `info` (the
 * {@link AccessLogEntry} fields, message `request`) and every 5xx at `error` (the
 * {@link ErrorLogEntry} fields, message `request failed`), without their `level` and
 * `message`, which the logger sets. A pino logger fits as it is.
 *
 * @example
 * ```ts
 * // logger = pino(), or any object with info(fields, message) and error(fields, message)
 * createHandler({ engine, accounts, logger });
 * ```
 */
export interface RequestLogger {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** Receives each 5xx answer's {@link ErrorLogEntry} and what was thrown, if anything. */
export type ErrorLogger = (entry: ErrorLogEntry, error: unknown) => void;

/** Receives one {@link AccessLogEntry} per request. */
export type AccessLogger = (entry: AccessLogEntry) => void;

/**
 * The default error log: each entry as one JSON line on `console.error`.
 *
 * @example
 * ```ts
 * createHandler({ engine, accounts, onError: consoleErrorLog }); // the default
 * ```
 */
export const consoleErrorLog: ErrorLogger = (entry) => {
  console.error(JSON.stringify(entry));
};

/**
 * An access log: each entry as one JSON line on `console.log`. Off unless passed.
 *
 * @example
 * ```ts
 * createHandler({ engine, accounts, onAccess: consoleAccessLog });
 * ```
 */
export const consoleAccessLog: AccessLogger = (entry) => {
  console.log(JSON.stringify(entry));
};

/** A thrown value that is not an Error, as text (JSON when it can be). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

/** What was thrown, as the error log describes it. */
export function describeError(error: unknown): ErrorLogEntry['error'] {
  if (error === undefined) return undefined;
  if (!(error instanceof Error)) return { name: typeof error, message: textOf(error) };
  const cause = (error as { cause?: unknown }).cause;
  return {
    name: error.name,
    message: error.message,
    ...(error.stack === undefined ? {} : { stack: error.stack }),
    ...(cause === undefined
      ? {}
      : { cause: cause instanceof Error ? `${cause.name}: ${cause.message}` : textOf(cause) }),
  };
}

/** Calls a host's logger; a logger that throws never changes the answer. */
export function safely<T>(
  logger: ((entry: T, error?: unknown) => void) | undefined,
  entry: T,
  error?: unknown,
): void {
  if (!logger) return;
  try {
    logger(entry, error);
  } catch {
    // A broken logger must not turn an answer into a failure.
  }
}
