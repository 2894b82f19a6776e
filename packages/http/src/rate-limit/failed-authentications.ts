import { presentedBearerCredentials } from '../auth/api-key-authenticator.js';
import { HttpError } from '../errors/http-error.js';
import { createTokenBucketLimiter, type RateLimitPolicy } from './token-bucket.js';

/**
 * The default limit of failed authentications per client: bursts of 20, then one every
 * 5 seconds. A client past it is answered `429 rate_limited` without its credentials
 * being looked up, valid or not, until its bucket refills.
 *
 * @example
 * ```ts
 * createHandler({ engine, accounts, failedAuthenticationLimit: { ...DEFAULT_FAILED_AUTHENTICATION_LIMIT, burst: 5 } });
 * ```
 */
export const DEFAULT_FAILED_AUTHENTICATION_LIMIT: RateLimitPolicy = {
  requestsPerSecond: 0.2,
  burst: 20,
};

/** Characters of a presented token that name its bucket when the client address is unknown. */
const PREFIX_LENGTH = 16;

/** Failed authentications counted per client, in this process. */
export interface FailedAuthentications {
  /** Refuses (429) a client that failed too often; the request is not authenticated. */
  check(request: Request): void;
  /** Counts a failed authentication of the client. */
  failed(request: Request): void;
}

/**
 * Limits failed authentications per client: by its network address when known (from
 * `clientAddress`), else by the first characters of the token it presents (`pr_test_` and
 * 8 more for an API key). A request that presents nothing from an unknown address costs
 * no lookup and is not counted.
 */
export function createFailedAuthentications(
  policy: RateLimitPolicy,
  clientAddress: (request: Request) => string | null | undefined,
): FailedAuthentications {
  const limiter = createTokenBucketLimiter(policy);
  const keyOf = (request: Request): string | null => {
    const address = clientAddress(request);
    if (address) return `address\u0000${address}`;
    const presented = presentedBearerCredentials(request);
    return presented === null ? null : `token\u0000${presented.slice(0, PREFIX_LENGTH)}`;
  };
  return {
    check(request) {
      const key = keyOf(request);
      const wait = key === null ? 0 : limiter.retryAfter(key);
      if (wait > 0) {
        throw new HttpError(
          'rate_limited',
          `Too many failed authentications from this client; retry in ${wait} s.`,
          { headers: { 'retry-after': String(wait) } },
        );
      }
    },
    failed(request) {
      const key = keyOf(request);
      if (key !== null) limiter.take(key);
    },
  };
}
