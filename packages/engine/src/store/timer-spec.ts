import type { RunEnvironment } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';

/**
 * What fires a timer: a deadline or wait. `partner_response` (a simulated partner's
 * answer) is no longer written — sandbox handoff jobs replaced it — but such timers
 * already in a store still fire as before.
 */
export type TimerKind = 'expiry' | 'timeout' | 'wait' | 'partner_response';

/** A durable timer row: the engine owns timers because XState does not restore `after`. */
export interface TimerRow {
  readonly id: string;
  readonly run_id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly kind: TimerKind;
  readonly step: string;
  readonly attempt: number;
  /** ISO time on the environment's clock. */
  readonly due_at: string;
  /** Extra data for whoever fires the timer (empty for the built-in kinds). */
  readonly payload: JsonObject;
  readonly status: 'pending' | 'fired' | 'cancelled';
}

/** Selects pending timers: one environment, optionally one account. */
export interface TimerQuery {
  readonly environment: RunEnvironment;
  /** Only this account's timers (test clocks are per account). */
  readonly account?: string;
}

/**
 * What a timer scheduler asks for: due pending timers, leased so that every other host
 * skips them until the lease ends (a crashed host's timers are taken over after it).
 */
export interface TimerClaim extends TimerQuery {
  /** Timers due at or before this (the environment's clock). */
  readonly due_at: string;
  /** Now on the wall clock: leases that ended before it are free. */
  readonly lease_now: string;
  /** Wall-clock ISO time until which the claimed timers are held. */
  readonly lease_until: string;
  readonly limit: number;
}

/** How far an account's test clock is ahead of the test environment's base clock. */
export interface TestClockRow {
  readonly account: string;
  /** Milliseconds ahead of the base clock; only grows. */
  readonly offset_ms: number;
  readonly updated_at: string;
}

/** Durable timers and the accounts' test clocks. */
export interface TimerOperations {
  scheduleTimers(timers: readonly TimerRow[]): Promise<void>;
  pendingTimers(runId: string): Promise<TimerRow[]>;
  /** Sets the status of timers by id. */
  settleTimers(ids: readonly string[], status: 'fired' | 'cancelled'): Promise<void>;
  /** Pending timers matching `query` due at or before `now`, earliest first (ties by id). */
  dueTimers(query: TimerQuery, now: string, limit: number): Promise<TimerRow[]>;
  /**
   * Leases due pending timers matching `claim` whose lease is free, earliest due first
   * (ties by id), and returns them. Two hosts claiming at once never get the same timer:
   * rows another transaction is claiming are skipped, not waited for.
   */
  claimTimers(claim: TimerClaim): Promise<TimerRow[]>;
  /**
   * Frees the leases a claimer still holds on timers it will not fire (its host is
   * stopping): clears the lease of each pending timer of `ids` whose lease is still
   * `lease_until`, the one its claim set, so another host fires it at once. A timer another
   * claimer has leased since (after this lease ended), or that was settled, is untouched.
   */
  releaseTimerLeases(ids: readonly string[], lease_until: string): Promise<void>;
  /** Earliest pending timer matching `query`, if any. */
  nextTimer(query: TimerQuery): Promise<TimerRow | undefined>;

  /** The account's test clock; undefined while it has never moved. */
  getTestClock(account: string): Promise<TestClockRow | undefined>;
  /** Inserts or replaces an account's test clock. */
  putTestClock(clock: TestClockRow): Promise<void>;
  /** Every test clock that has moved, by account. */
  listTestClocks(): Promise<TestClockRow[]>;
}
