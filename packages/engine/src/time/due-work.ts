import type { EngineContext } from '../engine-context.js';
import { releaseJobLease } from '../handoffs/release-job-lease.js';
import { claimSandboxJobs, settleSandboxJob } from '../handoffs/sandbox-jobs.js';
import type { TimerQuery, TimerRow } from '../store/store-v1.js';

/** One claimed piece of due work: a timer, or a sandbox job (the simulated partner). */
export interface DueItem {
  readonly dueAt: string;
  readonly id: string;
  /** Applies it in its own transaction; true when it changed its run. */
  readonly fire: () => Promise<boolean>;
  /** Gives its lease back unfired (the host is stopping), unless another host holds it now. */
  readonly release: () => Promise<void>;
}

/** Earliest due first; a partner's answer before a deadline due at the same time; then by id. */
const byDueTime = (a: DueItem & { rank: number }, b: DueItem & { rank: number }): number =>
  a.dueAt < b.dueAt ? -1 : a.dueAt > b.dueAt ? 1 : a.rank - b.rank || (a.id < b.id ? -1 : 1);

/**
 * Claims, in one transaction, the due timers matching `query` and (in the test
 * environment) the due sandbox jobs, each batch under a lease, and returns them in the
 * order they fall due, as one walk through time would meet them.
 */
export async function claimDueWork(
  context: EngineContext,
  query: TimerQuery,
  at: string,
  fireTimer: (timer: TimerRow) => Promise<boolean>,
): Promise<DueItem[]> {
  const { transactions, liveClock, timerLeaseMs } = context;
  const leaseNow = liveClock.now();
  const leaseUntil = new Date(leaseNow.getTime() + timerLeaseMs).toISOString();
  const { timers, jobs } = await transactions.run(async ({ tx }) => ({
    timers: await tx.claimTimers({
      ...query,
      due_at: at,
      lease_now: leaseNow.toISOString(),
      lease_until: leaseUntil,
      limit: 100,
    }),
    jobs:
      query.environment === 'test'
        ? await claimSandboxJobs(context, tx, query, at, leaseNow, 100)
        : [],
  }));
  return [
    ...jobs.map((job) => ({
      dueAt: job.next_attempt_at,
      id: job.id,
      rank: 0,
      fire: () => settleSandboxJob(context, job, at),
      release: () => releaseJobLease(transactions, job).then(() => undefined),
    })),
    ...timers.map((timer) => ({
      dueAt: timer.due_at,
      id: timer.id,
      rank: 1,
      fire: () => fireTimer(timer),
      release: () => transactions.run(({ tx }) => tx.releaseTimerLeases([timer.id], leaseUntil)),
    })),
  ].sort(byDueTime);
}

/** Whether due work matching `query` is held by another caller (claimed, not yet applied). */
export function dueWorkHeld(
  context: EngineContext,
  query: TimerQuery,
  at: string,
): Promise<boolean> {
  return context.transactions.run(async ({ tx }) => {
    if ((await tx.dueTimers(query, at, 1)).length > 0) return true;
    if (query.environment !== 'test') return false;
    const next = await tx.nextHandoffJob(query);
    return next !== undefined && next <= at;
  });
}
