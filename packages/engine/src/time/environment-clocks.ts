import type { Clock } from './clock.js';
import type { Scope, StoreTransactionV1, TestClockRow } from '../store/store-v1.js';

/**
 * The time of every scope. Live time is the live clock. Each account has its own test
 * clock: the test base clock plus the account's offset, kept in the store (so every host
 * agrees), which only grows when the account advances its clock. One account moving its
 * test clock never fires another account's timers.
 */
export interface EnvironmentClocks {
  /** The scope's current time, read inside the caller's transaction. */
  now(tx: StoreTransactionV1, scope: Scope): Promise<Date>;
  /** The scope's current time given its account's test clock as already read (none: at base). */
  nowWith(scope: Scope, testClock: TestClockRow | undefined): Date;
  /** The base time of every test clock (an account that never advanced is at it). */
  testBase(): Date;
  /** The live clock's time. */
  live(): Date;
  /** Moves an account's test clock to `time`, never backwards; returns the new time. */
  moveTestClock(tx: StoreTransactionV1, account: string, time: Date): Promise<Date>;
}

/**
 * Clocks over a live clock and the base clock of the test environment.
 */
export function createEnvironmentClocks(liveClock: Clock, testBaseClock: Clock): EnvironmentClocks {
  const offsetOf = async (tx: StoreTransactionV1, account: string): Promise<number> =>
    (await tx.getTestClock(account))?.offset_ms ?? 0;
  return {
    async now(tx, scope) {
      if (scope.environment === 'live') return liveClock.now();
      return new Date(testBaseClock.now().getTime() + (await offsetOf(tx, scope.account)));
    },
    nowWith(scope, testClock) {
      if (scope.environment === 'live') return liveClock.now();
      return new Date(testBaseClock.now().getTime() + (testClock?.offset_ms ?? 0));
    },
    testBase: () => testBaseClock.now(),
    live: () => liveClock.now(),
    async moveTestClock(tx, account, time) {
      const base = testBaseClock.now().getTime();
      const current = await offsetOf(tx, account);
      const offset = Math.max(current, time.getTime() - base);
      if (offset !== current) {
        await tx.putTestClock({
          account,
          offset_ms: offset,
          updated_at: liveClock.now().toISOString(),
        });
      }
      return new Date(base + offset);
    },
  };
}
