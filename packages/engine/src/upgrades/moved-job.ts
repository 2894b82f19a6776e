import type { HandoffJobRow, StoreTransactionV1 } from '../store/store-v1.js';

/** The open job of a waiting handoff an upgrade changes, and its next row. */
export interface MovedJob {
  readonly job: HandoffJobRow;
  /** The same job under its new party and deadline. */
  readonly next: HandoffJobRow;
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
 * The run's open job of the handoff it waits at (`step`) with the row it gets when the
 * upgrade renames its party (its next call goes to the new name's connector) or moves its
 * deadline (its retries fit the new one); null when there is nothing to change. The request
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
  const job = jobs.find((candidate) => candidate.step === step && OPEN.has(candidate.status));
  if (!job) return null;
  const party = changes.parties[job.party] ?? job.party;
  const deadline = changes.deadline ?? job.deadline;
  if (party === job.party && deadline === job.deadline) return null;
  if (job.lease_until !== null && Date.parse(job.lease_until) > now.getTime())
    return `a call to ${job.party} is in flight (leased until ${job.lease_until}): upgrade it again once the call is over`;
  return { job, next: { ...job, party, deadline, updated_at: now.toISOString() } };
}
