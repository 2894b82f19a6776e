import type { EngineContext } from '../engine-context.js';
import type { CallOutcome } from '../flow-control/circuit-breaker.js';
import type { HandoffJobRow } from '../store/store-v1.js';
import { callConnector, type CallResult } from './call-connector.js';
import type { ResolvedPartner } from './handoff-settings.js';
import type { LiveCallCount } from './live-call-count.js';
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

/**
 * The claim of up to `limit` of a party's due live jobs, leased to this engine now; the
 * jobs in `ended` (this host's, their calls over, their results being written) are not
 * counted in flight.
 */
function liveClaim(
  context: EngineContext,
  partner: ResolvedPartner,
  limit: number,
  ended: readonly string[],
) {
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
    ...(ended.length === 0 ? {} : { ended }),
  } as const;
}

/**
 * Leases up to `limit` of a party's due live jobs to this engine, within the party's
 * concurrency (across hosts) and per-account share; `ended` are this host's jobs whose
 * calls are over but whose results are still being written (not in flight). One write:
 * on SQL stores one statement that commits by itself.
 */
export function claimLiveJobs(
  context: EngineContext,
  partner: ResolvedPartner,
  limit: number,
  ended: readonly string[] = [],
): Promise<HandoffJobRow[]> {
  return context.transactions.run(
    ({ tx }) => tx.claimHandoffJobs(liveClaim(context, partner, limit, ended)),
    { singleWrite: true },
  );
}

/** Options of {@link runLiveCall}. */
export interface LiveCallOptions {
  /** Aborts the call when the host is stopping (the job's lease is given back). */
  readonly stop?: AbortSignal;
  /**
   * Told as soon as the call is over (the partner answered, or the call failed), before
   * its result is written: the call leaves its party's slot then, so the host may start
   * the party's next call while this one's result is being written. A partner's
   * `concurrency` counts calls to the partner, not the engine's own bookkeeping.
   */
  readonly callEnded?: () => void;
}

/**
 * Calls the party's connector for one claimed job, with an AbortSignal at the end of the
 * lease or the handoff deadline (whichever is first), tells the party's flow control how
 * it went and `callEnded` that the call is over, then settles the result: one read and
 * one write. True when the result was written. When `stop` aborts first (the host is
 * stopping), the call is aborted and the job's lease given back instead: nothing is
 * settled and the breaker is not told.
 */
export async function runLiveCall(
  context: EngineContext,
  partner: ResolvedPartner,
  job: HandoffJobRow,
  options: LiveCallOptions = {},
): Promise<boolean> {
  const { stop, callEnded } = options;
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
      callEnded?.();
      written = await settleLiveJob(context, { job, result, durationMs });
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
 * the calls with `start`. `calls.inFlight()` counts this host's calls, `inFlight(party)`
 * those of one party: a party whose concurrency this host's calls take whole is not
 * claimed from; `calls.ended(party)` names this host's jobs whose calls are over while
 * their results are being written, which the claim does not count in flight. Returns how
 * many calls it started.
 */
export async function pumpLiveCalls(
  context: EngineContext,
  calls: Pick<LiveCallCount, 'inFlight' | 'ended'>,
  start: StartCall,
  turn: number,
): Promise<number> {
  const { inFlight } = calls;
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
    const jobs = await claimLiveJobs(context, partner, allowance, calls.ended(partner.party));
    for (const job of jobs) start(partner, job);
    started += jobs.length;
  }
  return started;
}
