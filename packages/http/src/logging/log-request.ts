import { failureOf } from './failures.js';
import {
  consoleErrorLog,
  describeError,
  safely,
  type AccessLogEntry,
  type AccessLogger,
  type ErrorLogEntry,
  type ErrorLogger,
  type RequestLogger,
} from './request-log.js';

/** The loggers a handler calls after answering. */
export interface RequestLoggers {
  readonly error: ErrorLogger | undefined;
  readonly access: AccessLogger | undefined;
}

/** An entry as a structured logger takes it: its fields, without `level` and `message`. */
function fieldsOf(entry: AccessLogEntry | ErrorLogEntry): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...entry };
  delete fields.level;
  delete fields.message;
  return fields;
}

/** Calls each logger given, each one safely. */
function both<T>(
  ...loggers: readonly (((entry: T, error?: unknown) => void) | undefined)[]
): ((entry: T, error?: unknown) => void) | undefined {
  const present = loggers.filter((logger) => logger !== undefined);
  if (present.length <= 1) return present[0];
  return (entry, error) => {
    for (const logger of present) safely(logger, entry, error);
  };
}

/**
 * The handler's loggers from its options: 5xx to `onError` (by default `console.error`,
 * unless a `logger` is given or `onError` is `false`) and to `logger.error`; requests to
 * `onAccess` and `logger.info` when given.
 */
export function requestLoggersOf(options: {
  readonly onError?: ErrorLogger | false | undefined;
  readonly onAccess?: AccessLogger | undefined;
  readonly logger?: RequestLogger | undefined;
}): RequestLoggers {
  const { logger } = options;
  const onError =
    options.onError === false
      ? undefined
      : (options.onError ?? (logger ? undefined : consoleErrorLog));
  return {
    error: both<ErrorLogEntry>(
      onError,
      logger && ((entry) => logger.error(fieldsOf(entry), entry.message)),
    ),
    access: both<AccessLogEntry>(
      options.onAccess,
      logger && ((entry) => logger.info(fieldsOf(entry), entry.message)),
    ),
  };
}

/** What the handler knows of a request once it is answered. */
export interface AnsweredRequest {
  readonly request: Request;
  readonly requestId: string;
  /** `performance.now()` when the handler received it. */
  readonly startedAt: number;
  /** The matched route's template; null when none matched. */
  readonly route: string | null;
  readonly account: string | null;
  readonly credentialId: string | null;
  /** The server span's trace id; null without one. */
  readonly traceId: string | null;
  readonly response: Response;
}

const pathOf = (request: Request): string => {
  try {
    return new URL(request.url).pathname;
  } catch {
    return request.url;
  }
};

/** Logs a 5xx answer to the error log, with what was thrown behind it. */
function logFailure(
  log: ErrorLogger | undefined,
  request: {
    readonly method: string;
    readonly path: string;
    readonly route: string | null;
    readonly requestId: string;
    readonly traceId: string | null;
  },
  response: Response,
): void {
  if (!log || response.status < 500) return;
  const failure = failureOf(response);
  const error = describeError(failure?.error);
  safely(
    log,
    {
      level: 'error',
      message: 'request failed',
      request_id: request.requestId,
      method: request.method,
      path: request.path,
      route: request.route,
      status: response.status,
      trace_id: request.traceId,
      code: failure?.code ?? null,
      ...(error === undefined ? {} : { error }),
    },
    failure?.error,
  );
}

/**
 * Logs a 5xx an adapter answered itself (a request it could not build or hand over) to
 * the handler's error log, under the answer's `Request-Id`.
 */
export function logAdapterFailure(
  log: ErrorLogger | undefined,
  request: { readonly method?: string | undefined; readonly url?: string | undefined },
  response: Response,
): void {
  logFailure(
    log,
    {
      method: request.method ?? 'GET',
      path: (request.url ?? '/').split('?')[0]!,
      route: null,
      requestId: response.headers.get('request-id') ?? '',
      traceId: null,
    },
    response,
  );
}

/**
 * Logs an answered request: every 5xx to the error log (with what was thrown behind it),
 * every request to the access log when there is one.
 */
export function logRequest(loggers: RequestLoggers, answered: AnsweredRequest): void {
  const { request, requestId, response, route, traceId } = answered;
  if (!loggers.error && !loggers.access) return;
  const path = pathOf(request);
  logFailure(loggers.error, { method: request.method, path, route, requestId, traceId }, response);
  safely(loggers.access, {
    level: 'info',
    message: 'request',
    request_id: requestId,
    method: request.method,
    path,
    route,
    status: response.status,
    duration_ms: Math.round((performance.now() - answered.startedAt) * 10) / 10,
    account: answered.account,
    credential_id: answered.credentialId,
    trace_id: traceId,
  });
}
