import { assertInteger, assertPositive, assertTime } from './check-options.js';

/** Settings of {@link createRateLimiter}. */
export interface PartyRateLimiterOptions {
  /** Calls per second in the long run (a finite number above 0; fractions allowed). */
  readonly perSecond: number;
  /** Calls allowed at once after a quiet spell: the bucket's size (default `ceil(perSecond)`, at least 1). */
  readonly burst?: number;
}

/**
 * A token bucket; every method takes the current time in milliseconds. Over any window
 * of `w` milliseconds it grants at most `burst + perSecond × w / 1000` calls.
 */
export interface PartyRateLimiter {
  /** The bucket's size. */
  readonly burst: number;
  /**
   * Takes one token if there is one: `true` means make the call now.
   *
   * @example
   * ```ts
   * const limiter = createRateLimiter({ perSecond: 10 });
   * if (!limiter.tryTake(Date.now())) {
   *   // wait until limiter.nextAvailableAt(Date.now())
   * }
   * ```
   */
  tryTake(now: number): boolean;
  /**
   * When `tryTake` will next succeed: `now` when a token is there already.
   *
   * @example
   * ```ts
   * const limiter = createRateLimiter({ perSecond: 2, burst: 1 });
   * limiter.tryTake(0); // true
   * limiter.nextAvailableAt(0); // 500
   * ```
   */
  nextAvailableAt(now: number): number;
  /**
   * How many whole tokens the bucket holds now, without taking any: how many calls
   * `tryTake` would grant in a row.
   *
   * @example
   * ```ts
   * const limiter = createRateLimiter({ perSecond: 5, burst: 3 });
   * limiter.tryTake(0);
   * limiter.available(0); // 2
   * ```
   */
  available(now: number): number;
}

/** One token, in the bucket's unit (a thousandth of a token per millisecond per `perSecond`). */
const TOKEN = 1_000;

/**
 * A token-bucket rate limiter for one party: starts full, refills at `perSecond`, holds at
 * most `burst` tokens. Pure: no timers, the caller passes the time (a time earlier than
 * one already seen counts as that one).
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({ perSecond: 5, burst: 2 });
 * limiter.tryTake(0); // true
 * limiter.tryTake(0); // true
 * limiter.tryTake(0); // false: the burst is spent
 * limiter.nextAvailableAt(0); // 200
 * ```
 */
export function createRateLimiter(options: PartyRateLimiterOptions): PartyRateLimiter {
  const { perSecond } = options;
  assertPositive('perSecond', perSecond);
  const burst = options.burst ?? Math.max(1, Math.ceil(perSecond));
  assertInteger('burst', burst, 1);

  // Tokens × 1000, so integer rates and times keep the arithmetic exact.
  let units = burst * TOKEN;
  let last: number | undefined;

  const refill = (now: number): void => {
    assertTime(now);
    if (last === undefined || now <= last) {
      last ??= now;
      return;
    }
    units = Math.min(burst * TOKEN, units + (now - last) * perSecond);
    last = now;
  };

  return {
    burst,
    tryTake(now) {
      refill(now);
      if (units < TOKEN) return false;
      units -= TOKEN;
      return true;
    },
    nextAvailableAt(now) {
      refill(now);
      if (units >= TOKEN) return now;
      let wait = Math.ceil((TOKEN - units) / perSecond);
      // Floating point: make sure the answer is a time `tryTake` succeeds at.
      while (Math.min(burst * TOKEN, units + wait * perSecond) < TOKEN) wait += 1;
      return last! + wait;
    },
    available(now) {
      refill(now);
      return Math.floor(units / TOKEN);
    },
  };
}
