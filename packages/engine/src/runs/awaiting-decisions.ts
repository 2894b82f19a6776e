import type { ApprovalDecision, PersistedSnapshot } from '@programrun/dsl';
import type { AwaitingDecision, AwaitingRecord } from './run-record.js';

/**
 * The decisions on an awaited step as the run record shows them: for approval waits (and
 * policy reviews) each decision in the order it was taken, the approver as `actor` and
 * without the credential; null for handoffs and timers.
 */
export function awaitingDecisions(
  kind: AwaitingRecord['kind'],
  decisions: readonly ApprovalDecision[] | undefined,
): readonly AwaitingDecision[] | null {
  if (kind !== 'approval') return null;
  return (decisions ?? []).map((item) => ({
    actor: item.approver,
    decision: item.decision,
    label: item.label ?? null,
    note: item.note,
    at: item.at,
  }));
}

/**
 * A stored awaiting record with `decisions`: records stored before the field existed get
 * them from the run's snapshot, placed where a record built now has them.
 */
export function withAwaitingDecisions(
  awaiting: AwaitingRecord,
  snapshot: PersistedSnapshot | null,
): AwaitingRecord {
  const stored: Partial<AwaitingRecord> = awaiting;
  if (stored.decisions !== undefined) return awaiting;
  const { handoff_job: job, ...rest } = awaiting;
  return {
    ...rest,
    decisions: awaitingDecisions(awaiting.kind, snapshot?.context.approvals[awaiting.step]),
    ...(job === undefined ? {} : { handoff_job: job }),
  };
}
