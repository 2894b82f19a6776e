import { assertInteger, assertTime } from './check-options.js';

/** Where a circuit breaker stands: calling normally, refusing, or letting probes through. */
export type CircuitStatus = 'closed' | 'open' | 'half_open';

/** How a party looks from outside: `degraded` while its breaker is open or half-open. */
export type PartyPosture = 'ok' | 'degraded';

/** What one call to the guarded party came to. */
export type CallOutcome = 'success' | 'failure';

/** Settings of {@link createCircuitBreaker}; times are in milliseconds. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the breaker (an integer, at least 1). */
  readonly failureThreshold: number;
  /** How long the breaker stays open before letting probes through (at least 0). */
  readonly openMs: number;
  /** Calls allowed through while half-open, until one of them is recorded (default 1). */
  readonly halfOpenProbes?: number;
}

/** A snapshot of a breaker, for decisions and for display. */
export interface CircuitState {
  readonly status: CircuitStatus;
  /** Failures recorded since the last success. */
  readonly consecutiveFailures: number;
  /** When the breaker last opened (open and half-open only). */
  readonly openedAt?: number;
  /** When an open breaker lets probes through (open and half-open only). */
  readonly retryAt?: number;
  /** `ok` when closed, `degraded` otherwise: what `party.status` shows. */
  readonly posture: PartyPosture;
}

/** A per-party circuit breaker; every method takes the current time in milliseconds. */
export interface CircuitBreaker {
  /**
   * Whether a call may go out now. Closed: always. Open: never before `retryAt`.
   * Half-open: a `true` answer reserves one of the `halfOpenProbes` probes, so ask once
   * per call you make.
   *
   * @example
   * ```ts
   * const breaker = createCircuitBreaker({ failureThreshold: 5, openMs: 30_000 });
   * if (breaker.canCall(Date.now())) {
   *   // call the partner, then breaker.record('success' or 'failure', Date.now())
   * }
   * ```
   */
  canCall(now: number): boolean;
  /**
   * Records how a call ended. Closed: a failure counts toward the threshold, a success
   * resets the count. Half-open: a success closes the breaker, a failure opens it again
   * for another `openMs`. Open: an outcome changes nothing (a call admitted before it opened).
   *
   * @example
   * ```ts
   * const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 1_000 });
   * breaker.record('failure', 0);
   * breaker.state(0).status; // 'open'
   * ```
   */
  record(outcome: CallOutcome, now: number): void;
  /**
   * The breaker as of `now` (an open breaker past its `retryAt` reads half-open).
   *
   * @example
   * ```ts
   * const breaker = createCircuitBreaker({ failureThreshold: 2, openMs: 1_000 });
   * breaker.state(0); // { status: 'closed', consecutiveFailures: 0, posture: 'ok' }
   * ```
   */
  state(now: number): CircuitState;
}

/**
 * A circuit breaker for one party: closed, open after `failureThreshold` consecutive
 * failures, half-open after `openMs` (letting `halfOpenProbes` calls through), closed
 * again on a successful probe and open again on a failed one. Pure: no timers, the caller
 * passes the time.
 *
 * @example
 * ```ts
 * const breaker = createCircuitBreaker({ failureThreshold: 3, openMs: 10_000 });
 * for (const at of [0, 1, 2]) breaker.record('failure', at);
 * breaker.canCall(5_000); // false: open until 10_002
 * breaker.canCall(10_002); // true: the half-open probe
 * breaker.record('success', 10_050);
 * breaker.state(10_050).status; // 'closed'
 * ```
 */
export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const { failureThreshold, openMs, halfOpenProbes = 1 } = options;
  assertInteger('failureThreshold', failureThreshold, 1);
  assertInteger('openMs', openMs, 0);
  assertInteger('halfOpenProbes', halfOpenProbes, 1);

  let status: CircuitStatus = 'closed';
  let consecutiveFailures = 0;
  let openedAt = 0;
  let probesLeft = 0;

  /** Moves an open breaker to half-open once its time is up. */
  const settle = (now: number): void => {
    assertTime(now);
    if (status === 'open' && now >= openedAt + openMs) {
      status = 'half_open';
      probesLeft = halfOpenProbes;
    }
  };
  const open = (now: number): void => {
    status = 'open';
    openedAt = now;
  };

  return {
    canCall(now) {
      settle(now);
      if (status === 'closed') return true;
      if (status === 'open' || probesLeft === 0) return false;
      probesLeft -= 1;
      return true;
    },
    record(outcome, now) {
      settle(now);
      if (status === 'open') return;
      if (outcome === 'success') {
        status = 'closed';
        consecutiveFailures = 0;
        return;
      }
      consecutiveFailures += 1;
      if (status === 'half_open' || consecutiveFailures >= failureThreshold) open(now);
    },
    state(now) {
      settle(now);
      if (status === 'closed') return { status, consecutiveFailures, posture: 'ok' };
      return {
        status,
        consecutiveFailures,
        openedAt,
        retryAt: openedAt + openMs,
        posture: 'degraded',
      };
    },
  };
}
