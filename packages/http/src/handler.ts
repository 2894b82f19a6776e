import type { Accounts, Engine, TelemetryOptions } from '@programrun/engine';
import { createKeyStoreAuthenticator } from './auth/api-key-authenticator.js';
import { authorizeApprovalByScopes, type AuthorizeApproval } from './auth/authorize-approval.js';
import type { Authenticate, Principal } from './auth/principal.js';
import { requireScope } from './auth/require-scope.js';
import { toPrincipal } from './auth/to-principal.js';
import { unauthenticated } from './auth/unauthenticated.js';
import { adapterClientAddress } from './client-address.js';
import { HttpError } from './errors/http-error.js';
import type { IdempotencyPolicy } from './idempotency/idempotency.js';
import { createIdempotencyPurge } from './idempotency/purge-expired.js';
import { logRequest, requestLoggersOf } from './logging/log-request.js';
import type { AccessLogger, ErrorLogger, RequestLogger } from './logging/request-log.js';
import { openApiPath } from './openapi/operation-spec.js';
import {
  createFailedAuthentications,
  DEFAULT_FAILED_AUTHENTICATION_LIMIT,
  type FailedAuthentications,
} from './rate-limit/failed-authentications.js';
import {
  createTokenBucketLimiter,
  DEFAULT_RATE_LIMIT,
  type RateLimiter,
  type RateLimitPolicy,
} from './rate-limit/token-bucket.js';
import { DEFAULT_MAX_BODY_BYTES } from './request-body.js';
import { newRequestId } from './request-id.js';
import { matchRoute, type Route, type RouteMatch } from './router.js';
import { ROUTES } from './routes/all-routes.js';
import { problemResponse } from './routes/answer-errors.js';
import { createOpenStreams } from './streams/open-streams.js';
import { DEFAULT_STREAM_POLICY, type StreamPolicy } from './streams/stream-policy.js';
import { createHttpTelemetry } from './telemetry/server-span.js';

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  readonly engine: Engine;
  /**
   * The accounts whose API keys authenticate requests (`createAccounts`); needed unless
   * `authenticate` resolves callers another way.
   */
  readonly accounts?: Accounts;
  /**
   * Resolves the caller. @default Bearer API keys from `accounts.apiKeys`
   * (`createKeyStoreAuthenticator`). Hosts with their own auth return their principal,
   * with the caller's `actor` and `scopes` (every scope when they leave them out).
   */
  readonly authenticate?: Authenticate;
  /**
   * Whether a principal may decide an approval step (checked in the decision's
   * transaction, before it is applied); false answers `403 approver_not_authorized`.
   * Quorum and four eyes then count distinct actors whatever this says.
   * @default the principal's scopes: `approvals:decide`, or `approvals:decide:<party>`
   * for steps that party approves (`authorizeApprovalByScopes`)
   */
  readonly authorizeApproval?: AuthorizeApproval;
  /**
   * Requests per credential: a token-bucket policy, a limiter of your own (shared across
   * processes), or `false` when the host limits rates itself.
   * @default 100 requests/s, bursts of 200, per credential, in this process
   */
  readonly rateLimit?: false | Partial<RateLimitPolicy> | RateLimiter;
  /**
   * Failed authentications per client (`clientAddress`, else the first characters of the
   * presented token): past it, `429 rate_limited` without looking the credentials up.
   * `false` when the host limits them itself.
   * @default bursts of 20, then one every 5 s, in this process
   */
  readonly failedAuthenticationLimit?: false | Partial<RateLimitPolicy>;
  /**
   * The client's network address, for limiting failed authentications. Behind a proxy,
   * return the address the proxy reports (e.g. from `X-Forwarded-For`, as far as you
   * trust it). @default the socket address the Node adapters saw (`adapterClientAddress`);
   * none for other transports
   */
  readonly clientAddress?: (request: Request) => string | null | undefined;
  /** Largest accepted body. @default 65536 */
  readonly maxBodyBytes?: number;
  /**
   * Idempotency-Key retention and purging of expired records (on the back of requests).
   * @default 24 h retention, purged at most every 10 minutes, system clock
   */
  readonly idempotency?: Partial<IdempotencyPolicy>;
  /**
   * Called once for every `5xx` answer with its request id, route, trace id, problem code
   * and what was thrown (which callers never see); `false` turns it off.
   * @default one JSON line on `console.error` (`consoleErrorLog`), unless a `logger` is given
   */
  readonly onError?: ErrorLogger | false;
  /**
   * Called once per request after it is answered: method, path, route, status, duration,
   * request id, account, credential id and trace id. Pass `consoleAccessLog` for one JSON
   * line per request on `console.log`.
   * @default none
   */
  readonly onAccess?: AccessLogger;
  /**
   * A structured logger (pino, or anything with `info(fields, message)` and
   * `error(fields, message)`): every request at `info`, every 5xx at `error`, with the
   * fields of `onAccess` and `onError` entries. It replaces the default `console.error`
   * error log; `onError` and `onAccess` still get their entries when given.
   * @default none
   */
  readonly logger?: RequestLogger;
  /**
   * OpenTelemetry: a SERVER span per request (HTTP semantic conventions, child of an
   * incoming `traceparent`) that the engine's spans nest under, and the
   * `http.server.request.duration` histogram. `false` turns it off.
   * @default the global OpenTelemetry API (near-free until an SDK is registered)
   */
  readonly telemetry?: TelemetryOptions;
  /**
   * Event streams (`GET /v1/program-runs/{id}/stream`): how many one credential may hold
   * open in this process, how long each lasts, how often an idle one sends a keep-alive
   * and reads its run for other hosts' changes. Each counts once against `rateLimit`.
   * @default 10 per credential, 5 minutes each, a keep-alive every 15 s, a read every 1 s
   * (`DEFAULT_STREAM_POLICY`)
   */
  readonly streams?: Partial<StreamPolicy>;
}

const ANONYMOUS: Principal = {
  account: 'anonymous',
  environment: 'test',
  credentialId: 'none',
  actor: 'anonymous',
  scopes: [],
};

function authenticatorOf(options: HandlerOptions): Authenticate {
  if (options.authenticate) return options.authenticate;
  if (options.accounts) return createKeyStoreAuthenticator(options.accounts.apiKeys);
  throw new TypeError(
    'createHandler needs `accounts` (createAccounts({ store })) to check API keys, or an `authenticate` hook of your own',
  );
}

function failuresOf(options: HandlerOptions): FailedAuthentications | null {
  if (options.failedAuthenticationLimit === false) return null;
  return createFailedAuthentications(
    { ...DEFAULT_FAILED_AUTHENTICATION_LIMIT, ...options.failedAuthenticationLimit },
    options.clientAddress ?? adapterClientAddress,
  );
}

function limiterOf(option: HandlerOptions['rateLimit']): RateLimiter | null {
  if (option === false) return null;
  if (option && 'take' in option) return option;
  return createTokenBucketLimiter({ ...DEFAULT_RATE_LIMIT, ...option });
}

/** The whole HTTP surface as one function; adapters convert to and from it. */
export interface Handler {
  handle(request: Request): Promise<Response>;
  /** Largest accepted body; adapters stop reading beyond it. */
  readonly maxBodyBytes: number;
  /**
   * The paths the handler answers, each one and everything under it (`/console` answers
   * `/console` and `/console/…`); the framework adapters pass only these on and call
   * `next()` for the rest. @default ['/v1']
   */
  readonly paths?: readonly string[] | undefined;
  /** The error log (`onError`); adapters report the 5xx they answer themselves to it. */
  readonly errorLog?: ErrorLogger | undefined;
}

/**
 * The `/v1` handler {@link createHandler} makes: a {@link Handler} whose open event
 * streams can be ended, so a server that stops need not wait for them.
 */
export interface ApiHandler extends Handler {
  /**
   * Ends every open event stream (`GET /v1/program-runs/{id}/stream`) at once, and any
   * opened later right after its first event: call it when the server starts draining,
   * before waiting for the requests in flight (clients reconnect to another host).
   *
   * @example
   * ```ts
   * const api = createHandler({ engine, accounts });
   * process.on('SIGTERM', () => {
   *   api.closeStreams(); // then drain the server
   * });
   * ```
   */
  closeStreams(): void;
}

/** Each route's template as OpenTelemetry and the logs name it (`/v1/program-runs/{id}`). */
const TEMPLATES = new Map<Route, string>(ROUTES.map((route) => [route, openApiPath(route.path)]));

/** What the handler learnt of the caller while answering, for the logs. */
interface Seen {
  account: string | null;
  credentialId: string | null;
}

/**
 * Creates the `/v1` handler: `handle(request)` authenticates, routes, and answers JSON
 * or RFC 9457 problem+json with a stable `code`; every response carries `Request-Id`.
 * It also answers the public `GET /healthz` (liveness) and `GET /readyz` (readiness:
 * `engine.readiness()`) probes; the framework adapters pass only `/v1` on, so mount those
 * two paths on `handler.handle` yourself there.
 *
 * @example
 * ```ts
 * const accounts = createAccounts({ store });
 * const { secret } = await accounts.apiKeys.create({ account: 'acct_demo', environment: 'test' });
 * const handler = createHandler({ engine, accounts });
 * const response = await handler.handle(new Request('http://localhost/v1/scenarios', {
 *   headers: { authorization: `Bearer ${secret}` },
 * }));
 * ```
 */
export function createHandler(options: HandlerOptions): ApiHandler {
  const idempotency: IdempotencyPolicy = {
    retentionMs: options.idempotency?.retentionMs ?? 24 * 3600 * 1000,
    purgeEveryMs: options.idempotency?.purgeEveryMs ?? 600_000,
    now: options.idempotency?.now ?? (() => new Date()),
  };
  const purge = createIdempotencyPurge(idempotency);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const authenticate = authenticatorOf(options);
  const limiter = limiterOf(options.rateLimit);
  const loggers = requestLoggersOf(options);
  const telemetry = createHttpTelemetry(options.telemetry);
  const failures = failuresOf(options);
  const authorizeApproval = options.authorizeApproval ?? authorizeApprovalByScopes;
  const streams = createOpenStreams({ ...DEFAULT_STREAM_POLICY, ...options.streams });

  /** The caller, or a 401 (counted as a failure of the client), or a 429 for a client that failed too often. */
  async function principalOf(request: Request): Promise<Principal> {
    failures?.check(request);
    const caller = await authenticate(request);
    if (!caller) {
      failures?.failed(request);
      throw unauthenticated(request);
    }
    return toPrincipal(caller);
  }

  async function route(
    request: Request,
    url: URL,
    match: RouteMatch,
    requestId: string,
    seen: Seen,
  ): Promise<Response> {
    if (match.kind === 'none') {
      throw new HttpError('route_not_found', `No endpoint ${request.method} ${url.pathname}.`);
    }
    if (match.kind === 'wrong_method') {
      throw new HttpError(
        'method_not_allowed',
        `${request.method} is not allowed on ${url.pathname}.`,
        {
          headers: { allow: match.allowed.join(', ') },
        },
      );
    }
    const principal = match.route.public ? ANONYMOUS : await principalOf(request);
    if (!match.route.public) {
      seen.account = principal.account;
      seen.credentialId = principal.credentialId;
      const decision = await limiter?.take(
        `${principal.account}\u0000${principal.environment}\u0000${principal.credentialId}`,
      );
      if (decision && !decision.allowed) {
        throw new HttpError(
          'rate_limited',
          `Too many requests for this API key; retry in ${decision.retryAfterSeconds} s.`,
          { headers: { 'retry-after': String(decision.retryAfterSeconds) } },
        );
      }
      if (match.route.scope) requireScope(principal, match.route.scope);
    }
    return match.route.handle({
      request,
      url,
      params: match.params,
      principal,
      requestId,
      engine: options.engine,
      maxBodyBytes,
      idempotency,
      authorizeApproval,
      purgeExpiredKeys: () => purge(options.engine, principal),
      streams,
    });
  }

  return {
    maxBodyBytes,
    errorLog: loggers.error,
    closeStreams: () => streams.closeAll(),
    async handle(request) {
      const requestId = newRequestId();
      const startedAt = performance.now();
      const seen: Seen = { account: null, credentialId: null };
      const url = new URL(request.url);
      const match = matchRoute(ROUTES, request.method, url.pathname.replace(/\/+$/, '') || '/');
      const template = match.kind === 'found' ? (TEMPLATES.get(match.route) ?? null) : null;
      const { response, traceId } = await telemetry.serve(
        { request, url, requestId, route: template },
        async () => {
          let response: Response;
          try {
            response = await route(request, url, match, requestId, seen);
          } catch (error) {
            response = problemResponse(error, requestId);
          }
          response.headers.set('request-id', requestId);
          return response;
        },
      );
      logRequest(loggers, {
        request,
        requestId,
        startedAt,
        route: template,
        account: seen.account,
        credentialId: seen.credentialId,
        traceId,
        response,
      });
      return response;
    },
  };
}
