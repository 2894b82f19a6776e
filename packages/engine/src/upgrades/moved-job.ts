import type { HandoffJobRow, StoreTransactionV1 } from '../store/store-v1.js';

/** The open job of a waiting handoff an upgrade changes, and its next row. */
export interface MovedJob {
  readonly job: HandoffJobRow;
  /** The same job under its new party and deadline. */
  readonly next: HandoffJobRow;
  /** Whether the job had given up (`exhausted`) and is queued again for the new deadline. */
  readonly resumed: boolean;
}

/** What an upgrade changes about the job of the handoff a run waits at. */
export interface JobChanges {
  /** Old party id → new (the migration's `renames.parties`). */
  readonly parties: Readonly<Record<string, string>>;
  /** The handoff's new deadline, when the migration moves it; null to keep it. */
  readonly deadline: string | null;
}

const OPEN = new Set<HandoffJobRow['status']>(['queued', 'accepted']);

/**
 * Whether `job` gets calls again under `deadline`: it gave up calling (`exhausted`: no retry
 * fitted before its old deadline) and the upgrade gives it a later one.
 */
const resumes = (job: HandoffJobRow, deadline: string | null): deadline is string =>
  job.status === 'exhausted' &&
  deadline !== null &&
  Date.parse(deadline) > Date.parse(job.deadline);

/**
 * The run's open job of the handoff it waits at (`step`) with the row it gets when the
 * upgrade renames its party (its next call goes to the new name's connector) or moves its
 * deadline (its retries fit the new one; a job that had given up retrying before the old one,
 * `exhausted`, is queued again at once, its calls counted on); null when there is nothing
 * to change. The request
 * the partner is sent stays as it was queued (same body, same `pik_` key), so a partner that
 * matches a retried key against its body sees the same call. A string says why the run
 * cannot move now: a call to the partner is in flight.
 */
export async function movedJob(
  tx: StoreTransactionV1,
  runId: string,
  step: string,
  changes: JobChanges,
  now: Date,
): Promise<MovedJob | string | null> {
  if (Object.keys(changes.parties).length === 0 && changes.deadline === null) return null;
  const jobs = await tx.handoffJobsOfRun(runId);
  const job = jobs.find(
    (candidate) =>
      candidate.step === step &&
      (OPEN.has(candidate.status) || resumes(candidate, changes.deadline)),
  );
  if (!job) return null;
  const party = changes.parties[job.party] ?? job.party;
  const deadline = changes.deadline ?? job.deadline;
  if (party === job.party && deadline === job.deadline) return null;
  if (job.lease_until !== null && Date.parse(job.lease_until) > now.getTime())
    return `a call to ${job.party} is in flight (leased until ${job.lease_until}): upgrade it again once the call is over`;
  const at = now.toISOString();
  if (resumes(job, changes.deadline)) {
    const next: HandoffJobRow = {
      ...job,
      party,
      deadline,
      status: 'queued',
      next_attempt_at: at,
      lease_owner: null,
      lease_until: null,
      updated_at: at,
    };
    return { job, next, resumed: true };
  }
  return { job, next: { ...job, party, deadline, updated_at: at }, resumed: false };
}
