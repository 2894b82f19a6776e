import type { HandoffJobRow, StoreTransactionV1 } from '../store/store-v1.js';

/** The open job of a waiting handoff whose party the migration renames, and its next row. */
export interface RenamedPartyJob {
  readonly job: HandoffJobRow;
  /** The same job under the new party: its next call goes to that party's connector. */
  readonly next: HandoffJobRow;
}

const OPEN = new Set<HandoffJobRow['status']>(['queued', 'accepted']);

/**
 * The run's open job of the handoff it waits at (`step`) when the migration renames its
 * party (`parties`: old id → new id), with the row it gets; null when there is none to
 * move. The request the partner is sent stays as it was queued (same body, same `pik_`
 * key), so a partner that matches a retried key against its body sees the same call. A
 * string says why the run cannot move now: a call to the partner is in flight.
 *
 * @example
 * ```ts
 * const moved = await renamedPartyJob(tx, run.id, 'hold_funds', { safeguarding_bank: 'custodian' }, now);
 * if (moved && typeof moved !== 'string') await tx.updateHandoffJob(moved.next, moved.job);
 * ```
 */
export async function renamedPartyJob(
  tx: StoreTransactionV1,
  runId: string,
  step: string,
  parties: Readonly<Record<string, string>>,
  now: Date,
): Promise<RenamedPartyJob | string | null> {
  if (Object.keys(parties).length === 0) return null;
  const jobs = await tx.handoffJobsOfRun(runId);
  const job = jobs.find((candidate) => candidate.step === step && OPEN.has(candidate.status));
  const party = job && parties[job.party];
  if (!job || party === undefined) return null;
  if (job.lease_until !== null && Date.parse(job.lease_until) > now.getTime())
    return `a call to ${job.party} is in flight (leased until ${job.lease_until}): upgrade it again once the call is over`;
  return { job, next: { ...job, party, updated_at: now.toISOString() } };
}
