import type { EngineContext } from '../engine-context.js';
import type { CallOutcome } from '../flow-control/circuit-breaker.js';
import type { Transaction } from '../kernel/transaction.js';
import type { HandoffJobRow } from '../store/store-v1.js';
import { callConnector, type CallResult } from './call-connector.js';
import type { ResolvedPartner } from './handoff-settings.js';
import {
  describeCall,
  HANDOFF_CALL_SPAN,
  handoffSpanStart,
  liveCallReport,
  reportCall,
} from './handoff-span.js';
import { releaseJobLease } from './release-job-lease.js';
import { settleLiveJob } from './settle-live-job.js';

/** What a call's result says about the partner's health, for its breaker. */
function breakerOutcome(result: CallResult): CallOutcome {
  if (result.kind === 'transient') return 'failure';
  // A permanent refusal the partner answered with shows it is up; one without a status
  // (a configuration the call never left with) does not.
  if (result.kind === 'permanent') return result.error.status === null ? 'failure' : 'success';
  return 'success';
}

/** Starts the call of a job this host claimed, keeping it among the calls in flight. */
export type StartCall = (partner: ResolvedPartner, job: HandoffJobRow) => void;

/** The claim of up to `limit` of a party's due live jobs, leased to this engine now. */
function liveClaim(context: EngineContext, partner: ResolvedPartner, limit: number) {
  const { workerId, leaseMs } = context.handoffs;
  const now = context.liveClock.now();
  return {
    environment: 'live',
    party: partner.party,
    due_at: now.toISOString(),
    lease_now: now.toISOString(),
    lease_until: new Date(now.getTime() + leaseMs).toISOString(),
    owner: workerId,
    limit,
    ...(partner.concurrency === null ? {} : { max_in_flight: partner.concurrency }),
    ...(partner.maxPerAccount === null ? {} : { max_per_account: partner.maxPerAccount }),
  } as const;
}

/**
 * Leases up to `limit` of a party's due live jobs to this engine, within the party's
 * concurrency (across hosts) and per-account share.
 */
export function claimLiveJobs(
  context: EngineContext,
  partner: ResolvedPartner,
  limit: number,
): Promise<HandoffJobRow[]> {
  return context.transactions.run(({ tx }) =>
    tx.claimHandoffJobs(liveClaim(context, partner, limit)),
  );
}

/**
 * What a settle claims before it commits: the party's next due job, for the slot the
 * settled call frees, when the party's flow control allows a call now. It is the same fair
 * claim a worker's pass makes, riding on the settle's commit rather than a transaction of
 * its own; its call starts once the settle has committed.
 */
const claimNext =
  (context: EngineContext, partner: ResolvedPartner, next: NonNullable<LiveCallOptions['next']>) =>
  async (transaction: Transaction): Promise<void> => {
    if (partner.flow.allowance(context.liveClock.now().getTime(), 1) <= 0) return;
    const jobs = await transaction.tx.claimHandoffJobs(liveClaim(context, partner, 1));
    if (jobs.length > 0)
      transaction.afterCommit(() => {
        // The settled call leaves the count before the next one of its slot enters it.
        next.ended();
        for (const job of jobs) next.start(partner, job);
      });
  };

/** Options of {@link runLiveCall}. */
export interface LiveCallOptions {
  /** Aborts the call when the host is stopping (the job's lease is given back). */
  readonly stop?: AbortSignal;
  /**
   * Claims the party's next due job in the settle, for the slot the call frees, when
   * `claiming()` says so (asked once the call ended), and starts its call with `start`
   * once the settle has committed, right after telling `ended` that this call left its
   * slot. A claim holds the party's advisory lock until its transaction commits, so a
   * settle claims only when its call is the party's one call in flight on this host (and
   * the host is not stopping): under load, a worker's pass claims for several freed slots
   * at once instead. A settle that claims nothing is a single-write unit of work.
   */
  readonly next?: {
    readonly start: StartCall;
    readonly claiming: () => boolean;
    readonly ended: () => void;
  };
}

/**
 * Calls the party's connector for one claimed job, with an AbortSignal at the end of the
 * lease or the handoff deadline (whichever is first), tells the party's flow control how
 * it went and settles the result, claiming the party's next due job in the same
 * transaction when `next` says so. True when the result was written. When `stop`
 * aborts first (the host is stopping), the call is aborted and the job's lease given back
 * instead: nothing is settled and the breaker is not told.
 */
export async function runLiveCall(
  context: EngineContext,
  partner: ResolvedPartner,
  job: HandoffJobRow,
  options: LiveCallOptions = {},
): Promise<boolean> {
  const { stop, next } = options;
  const live = () => context.liveClock.now().getTime();
  await partner.flow.begin(live);
  if (stop?.aborted) {
    partner.flow.end(null, live());
    await releaseJobLease(context.transactions, job);
    return false;
  }
  // The call runs in its span (in the run's trace), so a connector's request carries it.
  const start = handoffSpanStart(context, job, false);
  return context.telemetry.inSpan(HANDOFF_CALL_SPAN, start, async (span) => {
    describeCall(span, job, false);
    const abortAt = Math.min(Date.parse(job.lease_until ?? job.deadline), Date.parse(job.deadline));
    const started = performance.now();
    const { result, durationMs, stopped } = await callConnector(
      partner.connector,
      job,
      abortAt - live(),
      stop,
    );
    const seconds = (performance.now() - started) / 1000;
    partner.flow.end(stopped ? null : breakerOutcome(result), live());
    let written: boolean | undefined;
    try {
      if (stopped) {
        written = false;
        await releaseJobLease(context.transactions, job);
        return written;
      }
      const then = next?.claiming() ? claimNext(context, partner, next) : undefined;
      written = await settleLiveJob(context, { job, result, durationMs }, then);
      return written;
    } finally {
      // A call the stopping host aborted says nothing of the partner: dropped, no error.
      const report = stopped
        ? ({ outcome: 'dropped', seconds } as const)
        : liveCallReport(result, written, seconds);
      reportCall(context, span, job, report);
    }
  });
}

/**
 * One pass over the configured parties, from a rotating first party: claims what each
 * may call now (the host's free slots, the party's breaker and rate limiter) and starts
 * the calls with `start`. `inFlight()` counts this host's calls, `inFlight(party)` those
 * of one party: a party whose concurrency this host's calls take whole is not claimed
 * from. Returns how many calls it started.
 */
export async function pumpLiveCalls(
  context: EngineContext,
  inFlight: (party?: string) => number,
  start: StartCall,
  turn: number,
): Promise<number> {
  const partners = [...context.handoffs.partners.values()];
  let started = 0;
  for (let index = 0; index < partners.length; index += 1) {
    const partner = partners[(turn + index) % partners.length]!;
    const free = context.handoffs.maxInFlight - inFlight();
    if (free <= 0) break;
    if (partner.concurrency !== null && inFlight(partner.party) >= partner.concurrency) continue;
    const allowance = partner.flow.allowance(
      context.liveClock.now().getTime(),
      Math.min(free, 100),
    );
    if (allowance <= 0) continue;
    const jobs = await claimLiveJobs(context, partner, allowance);
    for (const job of jobs) start(partner, job);
    started += jobs.length;
  }
  return started;
}
