/** A token bucket: `burst` requests at once, refilled at `requestsPerSecond`. */
export interface RateLimitPolicy {
  /** Sustained rate per credential. @default 100 */
  readonly requestsPerSecond: number;
  /** Requests a credential may make at once after being idle. @default 200 */
  readonly burst: number;
}

/** Whether a request may proceed, and when to retry if not. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Whole seconds until a request would be allowed (0 when allowed). */
  readonly retryAfterSeconds: number;
}

/**
 * Decides per credential whether a request may proceed. The built-in one keeps buckets
 * in this process; hosts running many processes can plug in a shared one (e.g. Redis).
 */
export interface RateLimiter {
  take(key: string): RateLimitDecision | Promise<RateLimitDecision>;
}

/** A limiter that decides at once (the in-process token bucket). */
export interface LocalRateLimiter extends RateLimiter {
  take(key: string): RateLimitDecision;
  /** Whole seconds until `take(key)` would be allowed (0: now), taking nothing. */
  retryAfter(key: string): number;
}

/**
 * The default policy: 100 requests per second per credential, bursts of 200.
 *
 * @example
 * ```ts
 * createHandler({ engine, rateLimit: { ...DEFAULT_RATE_LIMIT, requestsPerSecond: 25 } });
 * ```
 */
export const DEFAULT_RATE_LIMIT: RateLimitPolicy = { requestsPerSecond: 100, burst: 200 };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * An in-process token-bucket limiter. Buckets refill lazily on use; at most `maxKeys`
 * are kept (full buckets are dropped first, since a missing bucket is a full one).
 *
 * @example
 * ```ts
 * const limiter = createTokenBucketLimiter({ requestsPerSecond: 10, burst: 20 });
 * limiter.take('acct_demo/test/key_1'); // { allowed: true, retryAfterSeconds: 0 }
 * ```
 */
export function createTokenBucketLimiter(
  policy: RateLimitPolicy,
  options: { readonly now?: () => number; readonly maxKeys?: number } = {},
): LocalRateLimiter {
  const { requestsPerSecond, burst } = policy;
  if (!(requestsPerSecond > 0) || !Number.isFinite(requestsPerSecond))
    throw new RangeError('requestsPerSecond must be a positive number');
  if (!(burst >= 1) || !Number.isFinite(burst)) throw new RangeError('burst must be at least 1');
  const now = options.now ?? (() => performance.now());
  const maxKeys = options.maxKeys ?? 10_000;
  const buckets = new Map<string, Bucket>();
  const refill = (bucket: Bucket, at: number): number =>
    Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * requestsPerSecond);

  const evict = (at: number): void => {
    for (const [key, bucket] of buckets) if (refill(bucket, at) >= burst) buckets.delete(key);
    // Still full of busy credentials: forget the oldest (it gets a fresh bucket).
    for (const key of buckets.keys()) {
      if (buckets.size < maxKeys) break;
      buckets.delete(key);
    }
  };

  const wait = (tokens: number): number => Math.max(1, Math.ceil((1 - tokens) / requestsPerSecond));

  return {
    retryAfter(key) {
      const bucket = buckets.get(key);
      if (!bucket) return 0;
      const tokens = refill(bucket, now());
      return tokens >= 1 ? 0 : wait(tokens);
    },
    take(key) {
      const at = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= maxKeys) evict(at);
        bucket = { tokens: burst, at };
        buckets.set(key, bucket);
      }
      bucket.tokens = refill(bucket, at);
      bucket.at = at;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true, retryAfterSeconds: 0 };
      }
      return { allowed: false, retryAfterSeconds: wait(bucket.tokens) };
    },
  };
}
