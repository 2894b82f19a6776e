import {
  createCircuitBreaker,
  type CallOutcome,
  type CircuitState,
} from '../flow-control/circuit-breaker.js';
import { createRateLimiter } from '../flow-control/rate-limiter.js';

/**
 * This host's flow control of one party: its circuit breaker and rate limiter, asked
 * before claiming and told how each call ended. Times are live-clock milliseconds.
 */
export interface PartnerFlow {
  /**
   * How many calls may be claimed now, at most `cap`: none while the breaker is open or its
   * half-open probe is out, one for the probe, else what the rate limiter holds.
   */
  allowance(now: number, cap: number): number;
  /** Before a claimed call goes out: takes its token (waiting once if another pass took it) and reserves the probe. */
  begin(now: () => number): Promise<void>;
  /** How the call ended (`null`: nothing that says how the partner is). */
  end(outcome: CallOutcome | null, now: number): void;
  /** The breaker as of `now`. */
  state(now: number): CircuitState;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The flow control of one party on this host. */
export function createPartnerFlow(options: {
  readonly rate: number | null;
  readonly failureThreshold: number;
  readonly cooldownMs: number;
}): PartnerFlow {
  const breaker = createCircuitBreaker({
    failureThreshold: options.failureThreshold,
    openMs: options.cooldownMs,
  });
  const limiter = options.rate === null ? null : createRateLimiter({ perSecond: options.rate });
  let probing = false;
  return {
    allowance(now, cap) {
      const status = breaker.state(now).status;
      if (status === 'open' || (status === 'half_open' && probing)) return 0;
      const tokens = limiter ? limiter.available(now) : cap;
      return Math.min(cap, tokens, status === 'half_open' ? 1 : cap);
    },
    async begin(now) {
      // Another pass of this host may have taken the token counted for this call: wait for
      // the next one once, then go (a rare, bounded overshoot rather than a stalled call).
      if (limiter && !limiter.tryTake(now())) {
        const at = now();
        await sleep(limiter.nextAvailableAt(at) - at);
        limiter.tryTake(now());
      }
      const at = now();
      if (breaker.state(at).status === 'half_open' && breaker.canCall(at)) probing = true;
    },
    end(outcome, now) {
      probing = false;
      if (outcome) breaker.record(outcome, now);
    },
    state: (now) => breaker.state(now),
  };
}
