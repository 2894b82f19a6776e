/** Where the engine reads the time. Injected so tests run on a virtual clock. */
export interface Clock {
  now(): Date;
}

/** A clock the test environment can move forward (test clocks, `POST /v1/test_helpers/clock/advance`). */
export interface AdjustableClock extends Clock {
  /** Moves the clock to `time`; never backwards. */
  advanceTo(time: Date): void;
}

/**
 * The machine's clock.
 *
 * @example
 * ```ts
 * createEngine({ store, scenarios, clock: systemClock });
 * ```
 */
export const systemClock: Clock = { now: () => new Date() };

function assertForward(current: Date, time: Date): void {
  if (Number.isNaN(time.getTime()) || time.getTime() < current.getTime()) {
    throw new RangeError(
      `cannot move the clock from ${current.toISOString()} back to ${String(time)}`,
    );
  }
}

/**
 * A clock that only moves when told to: byte-identical lifecycle records in tests.
 *
 * @example
 * ```ts
 * const clock = createVirtualClock('2026-01-01T00:00:00Z');
 * clock.advanceTo(new Date('2026-01-01T00:05:00Z'));
 * clock.now().toISOString(); // '2026-01-01T00:05:00.000Z'
 * ```
 */
export function createVirtualClock(
  start: string | Date = '2026-01-01T00:00:00.000Z',
): AdjustableClock {
  let current = new Date(start);
  if (Number.isNaN(current.getTime())) throw new RangeError(`invalid start time ${String(start)}`);
  return {
    now: () => new Date(current),
    advanceTo(time) {
      assertForward(current, time);
      current = new Date(time);
    },
  };
}

/**
 * Real time plus an offset that only grows: the reference server's test clock, so
 * simulated partners answer in real time and `clock/advance` jumps ahead.
 *
 * @example
 * ```ts
 * const clock = createOffsetClock();
 * clock.advanceTo(new Date(Date.now() + 3_600_000)); // an hour ahead from now on
 * ```
 */
export function createOffsetClock(base: Clock = systemClock): AdjustableClock {
  let offset = 0;
  return {
    now: () => new Date(base.now().getTime() + offset),
    advanceTo(time) {
      const current = new Date(base.now().getTime() + offset);
      assertForward(current, time);
      offset += time.getTime() - current.getTime();
    },
  };
}
