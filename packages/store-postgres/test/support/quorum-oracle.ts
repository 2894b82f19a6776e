// The serial model of a quorum approval raced by concurrent signals: whatever order the
// hosts applied them in, the history must be one serial execution of the accepted ones,
// and the answers clients got must agree with it.
import type { LifecycleRecord, RunStatus } from '@programrun/engine';

/** A signal a test sends to a raced step. */
export type RaceSignal =
  | {
      readonly kind: 'approval';
      readonly approver: string;
      readonly decision: 'approve' | 'reject';
    }
  | { readonly kind: 'cancel' };

/** A signal a test sent, with the status it got back. */
export type SentSignal = RaceSignal & { readonly status: number };

/** How the raced step ended in the history. */
export type QuorumOutcome = 'granted' | 'rejected' | 'cancelled' | 'open';

/** The step under race. */
export interface QuorumStep {
  readonly step: string;
  readonly quorum: number;
  /** Approvers the step never accepts (maker-checker). */
  readonly excluded: readonly string[];
}

interface Decision {
  readonly approver: string;
  readonly decision: string;
}

const DECISION_TYPES: Record<Exclude<QuorumOutcome, 'cancelled'>, string> = {
  granted: 'program_run.approval.granted',
  rejected: 'program_run.approval.rejected',
  open: 'program_run.approval.recorded',
};

const DECISION_RECORD_TYPES = new Set(Object.values(DECISION_TYPES));

/**
 * The status a run settles in after each outcome (bank payouts cancel on a rejection).
 *
 * @example
 * ```ts
 * await waitForRun(client, id, (run) => run.status === SETTLED_STATUS[outcome]);
 * ```
 */
export const SETTLED_STATUS: Record<QuorumOutcome, RunStatus> = {
  granted: 'completed',
  rejected: 'cancelled',
  cancelled: 'cancelled',
  open: 'waiting',
};

const isCancel = (record: LifecycleRecord): boolean =>
  (record.type === 'program_run.compensation.started' || record.type === 'program_run.cancelled') &&
  record.data.reason === 'cancel_requested';

/**
 * Replays the decisions a history recorded for `step` through the quorum rules, in
 * record order, and compares: each record's type with the model's, no decision after the
 * step ended, no excluded approver, a cancel only while the step was open, and the 200
 * answers exactly the applied signals (a repeat of an applied decision is also a 200).
 * Returns the outcome and every disagreement.
 *
 * @example
 * ```ts
 * const { outcome, problems } = replayQuorum(records, sent, { step: 'release_approval', quorum: 2, excluded: [MAKER] });
 * ```
 */
export function replayQuorum(
  records: readonly LifecycleRecord[],
  sent: readonly SentSignal[],
  rules: QuorumStep,
): { readonly outcome: QuorumOutcome; readonly problems: readonly string[] } {
  const problems: string[] = [];
  const decisionRecords = records.filter(
    (record) => record.step === rules.step && DECISION_RECORD_TYPES.has(record.type),
  );
  const decisions = (decisionRecords.at(-1)?.data.decisions ?? []) as unknown as Decision[];
  let decided: Exclude<QuorumOutcome, 'cancelled'> = 'open';
  let approvals = 0;
  for (const [index, decision] of decisions.entries()) {
    if (decided !== 'open') problems.push(`decision ${index + 1} after the step was ${decided}`);
    if (rules.excluded.includes(decision.approver)) {
      problems.push(`excluded approver ${decision.approver} was recorded`);
    }
    if (decision.decision === 'reject') decided = 'rejected';
    else if ((approvals += 1) >= rules.quorum) decided = 'granted';
    const type = decisionRecords[index]?.type;
    if (type !== DECISION_TYPES[decided]) {
      problems.push(`decision ${index + 1} recorded as ${type}, the model says ${decided}`);
    }
  }
  let outcome: QuorumOutcome = decided;
  const cancel = records.find(isCancel);
  if (cancel) {
    if (decided !== 'open') problems.push(`a cancel was applied after the step was ${decided}`);
    if (decisionRecords.some((record) => record.sequence > cancel.sequence)) {
      problems.push('a decision was recorded after the cancel');
    }
    outcome = 'cancelled';
  }
  const applied = new Set(decisions.map((d) => `${d.approver}:${d.decision}`));
  const answered = new Set<string>();
  let cancelsAnswered = 0;
  for (const signal of sent) {
    if (signal.status !== 200 && signal.status !== 409) {
      problems.push(`a ${signal.kind} answered ${signal.status}`);
    }
    if (signal.status !== 200) continue;
    if (signal.kind === 'cancel') cancelsAnswered += 1;
    else answered.add(`${signal.approver}:${signal.decision}`);
  }
  if ([...applied].sort().join() !== [...answered].sort().join()) {
    problems.push(
      `recorded decisions [${[...applied].join(', ')}] but 200 for [${[...answered].join(', ')}]`,
    );
  }
  if (cancelsAnswered !== (cancel ? 1 : 0)) {
    problems.push(`${cancelsAnswered} cancels answered 200, ${cancel ? 1 : 0} applied`);
  }
  return { outcome, problems };
}
