import type { EngineContext } from '../engine-context.js';
import { withExportability } from '../evidence/access-requests.js';
import type { HandoffJobRow, Scope, StoreTransactionV1, StoredRun } from '../store/store-v1.js';
import type { AwaitedJob } from '../kernel/commit-transition.js';
import { withAwaitingDecisions } from './awaiting-decisions.js';
import type { AwaitingHandoffJob, PostureRecord, RunRecord } from './run-record.js';

const jobView = (job: HandoffJobRow & { status: AwaitingHandoffJob['status'] }) =>
  ({
    status: job.status,
    attempts: job.calls,
    next_attempt_at: job.status === 'queued' ? job.next_attempt_at : null,
    last_error: job.last_error,
  }) satisfies AwaitingHandoffJob;

/** Live parties whose connector's breaker on this host is open or half-open read `degraded`. */
function degradedPosture(context: EngineContext, posture: PostureRecord): PostureRecord {
  const now = context.liveClock.now().getTime();
  const degraded = (party: string): boolean =>
    context.handoffs.partners.get(party)?.flow.state(now).posture === 'degraded';
  if (!posture.parties.some((party) => party.status === 'live' && degraded(party.id)))
    return posture;
  return {
    ...posture,
    parties: posture.parties.map((party) =>
      party.status === 'live' && degraded(party.id) ? { ...party, status: 'degraded' } : party,
    ),
  };
}

/**
 * The run record as read now: the awaited handoff's job (`awaiting.handoff_job`) and the
 * posture of parties whose breaker is open. Read time only, never stored. A record stored
 * before `awaiting.decisions` existed gets them from the snapshot.
 */
async function withHandoffOverlays(
  context: EngineContext,
  tx: StoreTransactionV1,
  run: StoredRun,
  known: AwaitedJob,
): Promise<RunRecord> {
  const stored = run.record.awaiting && withAwaitingDecisions(run.record.awaiting, run.snapshot);
  const record = stored === run.record.awaiting ? run.record : { ...run.record, awaiting: stored };
  const posture =
    run.environment === 'live' && context.handoffs.partners.size > 0
      ? degradedPosture(context, record.posture)
      : record.posture;
  const awaiting = record.awaiting;
  if (awaiting?.kind !== 'handoff')
    return posture === record.posture ? record : { ...record, posture };
  const jobs = known === undefined ? await tx.handoffJobsOfRun(run.id) : known ? [known] : [];
  const job = jobs.find(
    (candidate): candidate is HandoffJobRow & { status: AwaitingHandoffJob['status'] } =>
      candidate.step === awaiting.step && candidate.status !== 'closed',
  );
  return {
    ...record,
    posture,
    awaiting: job ? { ...awaiting, handoff_job: jobView(job) } : awaiting,
  };
}

/**
 * A run's record as the engine answers it (`getRun`, `listRuns`, a creation, a signal):
 * `evidence.exportable` current and the handoff overlays, read inside `tx`. A transition
 * that knows the awaited handoff's job (`awaitedJob`, the one it just queued or none)
 * passes it, and it is not read again.
 */
export async function readRunRecord(
  context: EngineContext,
  tx: StoreTransactionV1,
  scope: Scope,
  run: StoredRun,
  awaitedJob?: AwaitedJob,
): Promise<RunRecord> {
  return withExportability(tx, scope, await withHandoffOverlays(context, tx, run, awaitedJob));
}
