import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTokenBucketLimiter } from './token-bucket.js';

function manualClock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('createTokenBucketLimiter', () => {
  it('allows a burst, then refills at the sustained rate and says when to retry', () => {
    const clock = manualClock();
    const limiter = createTokenBucketLimiter({ requestsPerSecond: 2, burst: 3 }, clock);
    expect([1, 2, 3].map(() => limiter.take('k').allowed)).toEqual([true, true, true]);
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(500); // one token back
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(false);
    // Other keys have their own buckets.
    expect(limiter.take('other').allowed).toBe(true);
  });

  it('tells how long until a take would pass without taking anything', () => {
    const clock = manualClock();
    const limiter = createTokenBucketLimiter({ requestsPerSecond: 0.2, burst: 2 }, clock);
    expect(limiter.retryAfter('k')).toBe(0);
    limiter.take('k');
    expect(limiter.retryAfter('k')).toBe(0);
    expect(limiter.retryAfter('k')).toBe(0); // asking twice takes nothing
    limiter.take('k');
    expect(limiter.retryAfter('k')).toBe(5);
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 5 });
    clock.advance(5_000);
    expect(limiter.retryAfter('k')).toBe(0);
    expect(limiter.take('k').allowed).toBe(true);
  });

  it('rounds Retry-After up to whole seconds for slow rates', () => {
    const clock = manualClock();
    const limiter = createTokenBucketLimiter({ requestsPerSecond: 0.1, burst: 1 }, clock);
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 10 });
    clock.advance(9_999);
    expect(limiter.take('k').allowed).toBe(false);
    clock.advance(1);
    expect(limiter.take('k').allowed).toBe(true);
  });

  it('never allows more than burst + rate × elapsed in any window, and a retry after Retry-After succeeds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 300 }),
        (rate, burst, gaps) => {
          const clock = manualClock();
          const limiter = createTokenBucketLimiter({ requestsPerSecond: rate, burst }, clock);
          const allowedAt: number[] = [];
          for (const gap of gaps) {
            clock.advance(gap);
            if (limiter.take('k').allowed) allowedAt.push(clock.now());
          }
          for (let first = 0; first < allowedAt.length; first += 1) {
            for (let last = first; last < allowedAt.length; last += 1) {
              const elapsed = (allowedAt[last]! - allowedAt[first]!) / 1000;
              expect(last - first + 1).toBeLessThanOrEqual(burst + rate * elapsed + 1e-9);
            }
          }
          const denied = limiter.take('k');
          if (!denied.allowed) {
            clock.advance(denied.retryAfterSeconds * 1000);
            expect(limiter.take('k').allowed).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps at most maxKeys buckets, forgetting full ones first', () => {
    const clock = manualClock();
    const limiter = createTokenBucketLimiter(
      { requestsPerSecond: 1, burst: 1 },
      { ...clock, maxKeys: 2 },
    );
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('b').allowed).toBe(true);
    clock.advance(1_000); // a and b full again
    expect(limiter.take('c').allowed).toBe(true);
    expect(limiter.take('c').allowed).toBe(false);
  });

  it('refuses nonsense policies', () => {
    expect(() => createTokenBucketLimiter({ requestsPerSecond: 0, burst: 1 })).toThrow(RangeError);
    expect(() => createTokenBucketLimiter({ requestsPerSecond: 1, burst: 0 })).toThrow(RangeError);
    expect(() =>
      createTokenBucketLimiter({ requestsPerSecond: Number.POSITIVE_INFINITY, burst: 1 }),
    ).toThrow(RangeError);
  });
});
