import type { Engine } from '@programrun/engine';
import { randomBase62 } from '@programrun/engine';
import type { Authenticate, Principal } from './auth/principal.js';
import { HttpError } from './errors/http-error.js';
import type { IdempotencyPolicy } from './idempotency/idempotency.js';
import { DEFAULT_MAX_BODY_BYTES } from './request-body.js';
import { matchRoute, type Route } from './router.js';
import { problemResponse } from './routes/answer-errors.js';
import { evidenceRoutes } from './routes/evidence.js';
import { programRunRoutes } from './routes/program-runs.js';
import { scenarioRoutes } from './routes/scenarios.js';
import { signalRoutes } from './routes/signals.js';
import { testHelperRoutes } from './routes/test-helpers.js';

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  readonly engine: Engine;
  /** Resolves the caller; see `createApiKeyAuthenticator`. */
  readonly authenticate: Authenticate;
  /** Largest accepted body. @default 65536 */
  readonly maxBodyBytes?: number;
  /** Idempotency-Key retention and lock. @default 24 h retention, 60 s lock, system clock */
  readonly idempotency?: Partial<IdempotencyPolicy>;
}

const ANONYMOUS: Principal = { account: 'anonymous', environment: 'test', keyHint: 'none' };

/** The whole HTTP surface as one function; adapters convert to and from it. */
export interface Handler {
  handle(request: Request): Promise<Response>;
  /** Largest accepted body; adapters stop reading beyond it. */
  readonly maxBodyBytes: number;
}

const ROUTES: readonly Route[] = [
  ...programRunRoutes,
  ...signalRoutes,
  ...evidenceRoutes,
  ...scenarioRoutes,
  ...testHelperRoutes,
];

/**
 * Creates the `/v1` handler: `handle(request)` authenticates, routes, and answers JSON
 * or RFC 9457 problem+json with a stable `code`; every response carries `Request-Id`.
 *
 * @example
 * ```ts
 * const handler = createHandler({ engine, authenticate: createApiKeyAuthenticator(keys) });
 * const response = await handler.handle(new Request('http://localhost/v1/scenarios', {
 *   headers: { authorization: `Bearer ${key}` },
 * }));
 * ```
 */
export function createHandler(options: HandlerOptions): Handler {
  const idempotency: IdempotencyPolicy = {
    retentionMs: options.idempotency?.retentionMs ?? 24 * 3600 * 1000,
    lockMs: options.idempotency?.lockMs ?? 60_000,
    now: options.idempotency?.now ?? (() => new Date()),
  };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  async function route(request: Request, requestId: string): Promise<Response> {
    const url = new URL(request.url);
    const match = matchRoute(ROUTES, request.method, url.pathname.replace(/\/+$/, '') || '/');
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
    const principal = match.route.public ? ANONYMOUS : await options.authenticate(request);
    if (!principal) {
      throw new HttpError(
        'unauthorized',
        'Send Authorization: Bearer <key> with a valid programrun API key.',
      );
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
    });
  }

  return {
    maxBodyBytes,
    async handle(request) {
      const requestId = `req_${randomBase62(20)}`;
      let response: Response;
      try {
        response = await route(request, requestId);
      } catch (error) {
        response = problemResponse(error, requestId);
      }
      response.headers.set('request-id', requestId);
      return response;
    },
  };
}
