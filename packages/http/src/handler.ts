import type { Accounts, Engine } from '@programrun/engine';
import { createKeyStoreAuthenticator } from './auth/api-key-authenticator.js';
import { assertPrincipal } from './auth/assert-principal.js';
import type { Authenticate, Principal } from './auth/principal.js';
import { HttpError } from './errors/http-error.js';
import type { IdempotencyPolicy } from './idempotency/idempotency.js';
import { createIdempotencyPurge } from './idempotency/purge-expired.js';
import {
  createTokenBucketLimiter,
  DEFAULT_RATE_LIMIT,
  type RateLimiter,
  type RateLimitPolicy,
} from './rate-limit/token-bucket.js';
import { DEFAULT_MAX_BODY_BYTES } from './request-body.js';
import { newRequestId } from './request-id.js';
import { matchRoute } from './router.js';
import { ROUTES } from './routes/all-routes.js';
import { problemResponse } from './routes/answer-errors.js';

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
   * (`createKeyStoreAuthenticator`). Hosts with their own auth return their principal.
   */
  readonly authenticate?: Authenticate;
  /**
   * Requests per credential: a token-bucket policy, a limiter of your own (shared across
   * processes), or `false` when the host limits rates itself.
   * @default 100 requests/s, bursts of 200, per credential, in this process
   */
  readonly rateLimit?: false | Partial<RateLimitPolicy> | RateLimiter;
  /** Largest accepted body. @default 65536 */
  readonly maxBodyBytes?: number;
  /**
   * Idempotency-Key retention and purging of expired records (on the back of requests).
   * @default 24 h retention, purged at most every 10 minutes, system clock
   */
  readonly idempotency?: Partial<IdempotencyPolicy>;
}

const ANONYMOUS: Principal = { account: 'anonymous', environment: 'test', credentialId: 'none' };

function authenticatorOf(options: HandlerOptions): Authenticate {
  if (options.authenticate) return options.authenticate;
  if (options.accounts) return createKeyStoreAuthenticator(options.accounts.apiKeys);
  throw new TypeError(
    'createHandler needs `accounts` (createAccounts({ store })) to check API keys, or an `authenticate` hook of your own',
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
}

/**
 * Creates the `/v1` handler: `handle(request)` authenticates, routes, and answers JSON
 * or RFC 9457 problem+json with a stable `code`; every response carries `Request-Id`.
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
export function createHandler(options: HandlerOptions): Handler {
  const idempotency: IdempotencyPolicy = {
    retentionMs: options.idempotency?.retentionMs ?? 24 * 3600 * 1000,
    purgeEveryMs: options.idempotency?.purgeEveryMs ?? 600_000,
    now: options.idempotency?.now ?? (() => new Date()),
  };
  const purge = createIdempotencyPurge(idempotency);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const authenticate = authenticatorOf(options);
  const limiter = limiterOf(options.rateLimit);

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
    const principal = match.route.public ? ANONYMOUS : await authenticate(request);
    if (!principal) {
      throw new HttpError(
        'unauthorized',
        'Send Authorization: Bearer <key> with a valid programrun API key.',
      );
    }
    if (!match.route.public) {
      assertPrincipal(principal);
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
      purgeExpiredKeys: () => purge(options.engine, principal),
    });
  }

  return {
    maxBodyBytes,
    async handle(request) {
      const requestId = newRequestId();
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
