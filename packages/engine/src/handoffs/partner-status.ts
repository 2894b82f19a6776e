import type { EngineContext } from '../engine-context.js';
import type { CircuitStatus, PartyPosture } from '../flow-control/circuit-breaker.js';
import type { HandoffPartyLoad, Scope } from '../store/store-v1.js';
import type { ResolvedPartner } from './handoff-settings.js';
import { hostPartyLoads } from './party-loads.js';

/**
 * One partner as `GET /v1/partners` shows it: its connector and limits, the scope's
 * account's jobs (in flight, queued, accepted, exhausted), and this host's breaker.
 *
 * @example
 * ```ts
 * const [bank] = await engine.partners({ account: 'acct_demo', environment: 'live' });
 * if (bank?.posture === 'degraded') console.warn(`${bank.party}: breaker ${bank.breaker.status}`);
 * ```
 */
export interface PartnerStatus {
  readonly party: string;
  /** `custom`: a connector the host configured; `sandbox`: the test environment's simulated partner. */
  readonly connector: 'custom' | 'sandbox';
  readonly concurrency: number | null;
  readonly rate: number | null;
  readonly max_per_account: number | null;
  /**
   * The account's calls to the partner in flight: its queued jobs a worker holds, less
   * those whose call on this host is over and whose result is being written (another
   * host's are counted until their results are written).
   */
  readonly in_flight: number;
  /** The account's queued jobs no worker holds. */
  readonly queued: number;
  readonly accepted: number;
  readonly exhausted: number;
  readonly next_attempt_at: string | null;
  readonly breaker: {
    readonly status: CircuitStatus;
    readonly consecutive_failures: number;
    /** When an open breaker lets a probe through (live clock); null when closed. */
    readonly retry_at: string | null;
  };
  /** `degraded` while the breaker is open or half-open. */
  readonly posture: PartyPosture;
}

const NO_LOAD = { in_flight: 0, queued: 0, accepted: 0, exhausted: 0, next_attempt_at: null };

const sandboxStatus = (load: HandoffPartyLoad): PartnerStatus => ({
  party: load.party,
  connector: 'sandbox',
  concurrency: null,
  rate: null,
  max_per_account: null,
  in_flight: load.in_flight,
  queued: load.queued,
  accepted: load.accepted,
  exhausted: load.exhausted,
  next_attempt_at: load.next_attempt_at,
  breaker: { status: 'closed', consecutive_failures: 0, retry_at: null },
  posture: 'ok',
});

function liveStatus(
  partner: ResolvedPartner,
  load: Omit<HandoffPartyLoad, 'party'>,
  now: number,
): PartnerStatus {
  const state = partner.flow.state(now);
  return {
    party: partner.party,
    connector: 'custom',
    concurrency: partner.concurrency,
    rate: partner.rate,
    max_per_account: partner.maxPerAccount,
    in_flight: load.in_flight,
    queued: load.queued,
    accepted: load.accepted,
    exhausted: load.exhausted,
    next_attempt_at: load.next_attempt_at,
    breaker: {
      status: state.status,
      consecutive_failures: state.consecutiveFailures,
      retry_at: state.retryAt === undefined ? null : new Date(state.retryAt).toISOString(),
    },
    posture: state.posture,
  };
}

/**
 * The partners of a scope: in live every party with a configured connector (by party id),
 * with this host's breaker; in test the parties of the account's open sandbox jobs.
 */
export async function partnerStatuses(
  context: EngineContext,
  scope: Scope,
): Promise<PartnerStatus[]> {
  const now = context.liveClock.now();
  const loads = await context.transactions.run(({ tx }) =>
    hostPartyLoads(context, tx, { environment: scope.environment, account: scope.account }, now),
  );
  if (scope.environment === 'test') return loads.map(sandboxStatus);
  const byParty = new Map(loads.map((load) => [load.party, load]));
  return [...context.handoffs.partners.values()]
    .sort((a, b) => (a.party < b.party ? -1 : a.party > b.party ? 1 : 0))
    .map((partner) => liveStatus(partner, byParty.get(partner.party) ?? NO_LOAD, now.getTime()));
}
