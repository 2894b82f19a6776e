import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRateLimiter } from '../../src/index.js';

describe('createRateLimiter', () => {
  it('starts full, spends the burst, then refills at perSecond', () => {
    const limiter = createRateLimiter({ perSecond: 4, burst: 2 });
    expect([limiter.tryTake(0), limiter.tryTake(0), limiter.tryTake(0)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(limiter.nextAvailableAt(0)).toBe(250);
    expect(limiter.tryTake(249)).toBe(false);
    expect(limiter.tryTake(250)).toBe(true);
    expect(limiter.nextAvailableAt(300)).toBe(500);
  });

  it('never holds more than burst tokens', () => {
    const limiter = createRateLimiter({ perSecond: 10, burst: 3 });
    limiter.tryTake(0);
    const granted = [0, 1, 2, 3].map(() => limiter.tryTake(60_000)).filter(Boolean);
    expect(granted).toHaveLength(3);
  });

  it('defaults burst to ceil(perSecond), at least 1', () => {
    expect(createRateLimiter({ perSecond: 2.5 }).burst).toBe(3);
    expect(createRateLimiter({ perSecond: 0.1 }).burst).toBe(1);
  });

  it('handles fractional rates: nextAvailableAt is a time tryTake succeeds at', () => {
    const limiter = createRateLimiter({ perSecond: 0.3, burst: 1 });
    expect(limiter.tryTake(0)).toBe(true);
    const at = limiter.nextAvailableAt(0);
    expect(at).toBe(3_334);
    expect(limiter.tryTake(at - 1)).toBe(false);
    expect(limiter.tryTake(at)).toBe(true);
  });

  it('treats a time earlier than one already seen as that one', () => {
    const limiter = createRateLimiter({ perSecond: 1, burst: 1 });
    expect(limiter.tryTake(10_000)).toBe(true);
    expect(limiter.tryTake(0)).toBe(false);
    expect(limiter.nextAvailableAt(0)).toBe(11_000);
  });

  it('rejects invalid options and times', () => {
    expect(() => createRateLimiter({ perSecond: 0 })).toThrow(RangeError);
    expect(() => createRateLimiter({ perSecond: Infinity })).toThrow(RangeError);
    expect(() => createRateLimiter({ perSecond: 1, burst: 0 })).toThrow(RangeError);
    expect(() => createRateLimiter({ perSecond: 1, burst: 1.5 })).toThrow(RangeError);
    expect(() => createRateLimiter({ perSecond: 1 }).tryTake(NaN)).toThrow(RangeError);
  });
});

const settings = fc.record({
  perSecond: fc.integer({ min: 1, max: 50 }),
  burst: fc.integer({ min: 1, max: 10 }),
});

describe('rate limiter properties', () => {
  it('never grants more than perSecond × window + burst over any window', () => {
    fc.assert(
      fc.property(settings, fc.array(fc.nat({ max: 300 }), { maxLength: 300 }), (options, gaps) => {
        const limiter = createRateLimiter(options);
        const granted: number[] = [];
        let now = 0;
        for (const gap of gaps) {
          now += gap;
          if (limiter.tryTake(now)) granted.push(now);
        }
        // Every window [granted[i], granted[j]]: j - i + 1 grants in (granted[j] - granted[i]) ms.
        for (let i = 0; i < granted.length; i++) {
          for (let j = i; j < granted.length; j++) {
            const count = j - i + 1;
            const window = granted[j]! - granted[i]!;
            // Integer arithmetic: count ≤ perSecond × window / 1000 + burst.
            expect(count * 1_000).toBeLessThanOrEqual(
              options.perSecond * window + options.burst * 1_000,
            );
          }
        }
      }),
    );
  });

  it('nextAvailableAt is exact: tryTake fails just before it and succeeds at it', () => {
    fc.assert(
      fc.property(settings, fc.array(fc.nat({ max: 300 }), { maxLength: 100 }), (options, gaps) => {
        const limiter = createRateLimiter(options);
        let now = 0;
        for (const gap of gaps) {
          now += gap;
          const at = limiter.nextAvailableAt(now);
          expect(at).toBeGreaterThanOrEqual(now);
          if (at > now) {
            expect(limiter.tryTake(now)).toBe(false);
            // Nothing taken: the answer is unchanged, and true at that time.
            expect(limiter.nextAvailableAt(at - 1)).toBe(at);
            now = at;
          }
          expect(limiter.tryTake(now)).toBe(true);
        }
      }),
    );
  });

  it('available counts exactly the tokens tryTake grants in a row, taking none', () => {
    fc.assert(
      fc.property(settings, fc.array(fc.nat({ max: 300 }), { maxLength: 50 }), (options, gaps) => {
        const limiter = createRateLimiter(options);
        let now = 0;
        for (const gap of gaps) {
          now += gap;
          const available = limiter.available(now);
          expect(limiter.available(now)).toBe(available);
          for (let taken = 0; taken < available; taken += 1)
            expect(limiter.tryTake(now)).toBe(true);
          expect(limiter.tryTake(now)).toBe(false);
          expect(limiter.available(now)).toBe(0);
        }
      }),
    );
  });
});
