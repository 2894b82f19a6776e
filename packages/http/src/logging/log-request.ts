import { failureOf } from './failures.js';
import {
  consoleErrorLog,
  describeError,
  safely,
  type AccessLogger,
  type ErrorLogger,
} from './request-log.js';

/** The loggers a handler calls after answering. */
export interface RequestLoggers {
  readonly error: ErrorLogger | undefined;
  readonly access: AccessLogger | undefined;
}

/**
 * The handler's loggers from its options: errors on `console.error` unless `onError` is
 * another logger or `false`; no access log unless `onAccess` is given.
 */
export function requestLoggersOf(options: {
  readonly onError?: ErrorLogger | false | undefined;
  readonly onAccess?: AccessLogger | undefined;
}): RequestLoggers {
  return {
    error: options.onError === false ? undefined : (options.onError ?? consoleErrorLog),
    access: options.onAccess,
  };
}

/** What the handler knows of a request once it is answered. */
export interface AnsweredRequest {
  readonly request: Request;
  readonly requestId: string;
  /** `performance.now()` when the handler received it. */
  readonly startedAt: number;
  readonly account: string | null;
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
  request: { readonly method: string; readonly path: string; readonly requestId: string },
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
      status: response.status,
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
      requestId: response.headers.get('request-id') ?? '',
    },
    response,
  );
}

/**
 * Logs an answered request: every 5xx to the error log (with what was thrown behind it),
 * every request to the access log when there is one.
 */
export function logRequest(loggers: RequestLoggers, answered: AnsweredRequest): void {
  const { request, requestId, response } = answered;
  if (!loggers.error && !loggers.access) return;
  const path = pathOf(request);
  logFailure(loggers.error, { method: request.method, path, requestId }, response);
  safely(loggers.access, {
    level: 'info',
    message: 'request',
    request_id: requestId,
    method: request.method,
    path,
    status: response.status,
    duration_ms: Math.round((performance.now() - answered.startedAt) * 10) / 10,
    account: answered.account,
  });
}
