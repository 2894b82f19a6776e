import type { RunEnvironment } from '@programrun/dsl';

/** Seconds to wait before each retry, per environment. */
export interface RetrySchedule {
  readonly live: readonly number[];
  readonly test: readonly number[];
}

const MINUTE = 60;
const HOUR = 3600;

/**
 * The default retry schedule. Live: 9 retries after the first attempt, about 3 days in
 * all (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 12 h, 16 h, 26 h). Test: the same shape
 * compressed sixty-fold (about 72 minutes), so a sandbox endpoint's failures surface
 * quickly; it runs on the test environment's clock.
 *
 * @example
 * ```ts
 * DEFAULT_RETRY_SCHEDULE.live.length; // 9
 * ```
 */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  live: [
    5,
    5 * MINUTE,
    30 * MINUTE,
    2 * HOUR,
    5 * HOUR,
    10 * HOUR,
    12 * HOUR,
    16 * HOUR,
    26 * HOUR,
  ],
  test: [1, 5, 30, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 12 * MINUTE, 16 * MINUTE, 26 * MINUTE],
};

/**
 * Milliseconds until the next attempt after `attemptsMade` failed attempts in this round,
 * with ±20 % jitter so endpoints recovering from an outage are not hit in lockstep; null
 * when the schedule is exhausted.
 */
export function retryDelayMs(
  schedule: RetrySchedule,
  environment: RunEnvironment,
  attemptsMade: number,
  random: () => number,
): number | null {
  const seconds = schedule[environment][attemptsMade - 1];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (0.8 + 0.4 * random()));
}
