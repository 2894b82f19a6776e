import type { JsonObject } from '@programrun/evidence';
import {
  fact,
  update,
  withGuard,
  type ActionArgs,
  type Guard,
  type MachineAction,
  type TransitionSpec,
} from './machine-actions.js';
import type { FaultCause, StepExits } from './step-exits.js';
import type { ApprovalDecision, RunContext, RunEvent } from './run-context.js';

/** The approval rules of one waiting step (an approval, or a check's review). */
export interface ApprovalRules {
  readonly step: string;
  readonly stage: string | null;
  readonly quorum: number;
  readonly makerChecker: boolean;
  readonly onReject: string;
  readonly rejectCause: FaultCause;
}

type Decision = Extract<RunEvent, { type: 'approval.decision' }>;

const isDecisionFor = (step: string, event: RunEvent): event is Decision =>
  event.type === 'approval.decision' && event.step === step && event.approver.trim().length > 0;

/** Approvers of other steps' approvals: maker-checker keeps them out. */
function earlierApprovers(context: RunContext, step: string): Set<string> {
  return new Set(
    Object.entries(context.approvals).flatMap(([other, decisions]) =>
      other === step
        ? []
        : decisions.filter((item) => item.decision === 'approve').map((item) => item.approver),
    ),
  );
}

/**
 * True when the decision may count: for this step, by someone who has not decided this
 * attempt yet, and (with maker-checker) who approved no earlier step.
 */
export function isEligibleDecision(rules: ApprovalRules, { context, event }: ActionArgs): boolean {
  if (!isDecisionFor(rules.step, event)) return false;
  const decided = (context.approvals[rules.step] ?? []).some(
    (item) => item.approver === event.approver,
  );
  if (decided) return false;
  return !rules.makerChecker || !earlierApprovers(context, rules.step).has(event.approver);
}

const approvingCount = (decisions: readonly ApprovalDecision[]): number =>
  new Set(decisions.filter((item) => item.decision === 'approve').map((item) => item.approver))
    .size;

const recordDecision = (step: string): MachineAction =>
  update(({ context, event }) => {
    const decision = event as Decision;
    const entry: ApprovalDecision = {
      approver: decision.approver,
      decision: decision.decision,
      note: decision.note ?? null,
      at: decision.at,
      // Who decided with which credential, when the host said: the evidence names them.
      ...(decision.credential_id === undefined ? {} : { credential_id: decision.credential_id }),
      ...(decision.label === undefined ? {} : { label: decision.label }),
    };
    return {
      approvals: { ...context.approvals, [step]: [...(context.approvals[step] ?? []), entry] },
    };
  });

const decisionFact = (type: string, rules: ApprovalRules): MachineAction =>
  fact(({ context }) => {
    const decisions = context.approvals[rules.step] ?? [];
    return {
      type,
      stage: rules.stage,
      step: rules.step,
      data: {
        decisions: decisions as unknown as JsonObject[],
        approvals: approvingCount(decisions),
        quorum: rules.quorum,
        quorum_met: approvingCount(decisions) >= rules.quorum,
      },
    };
  });

/**
 * Transitions for `approval.decision`: a reject ends the step through `on_reject`; an
 * approve that reaches quorum succeeds; other approves are recorded and the step waits on.
 * `beforeSuccess` lets a check's review mark itself approved.
 */
export function approvalDecisionTransitions(
  rules: ApprovalRules,
  exits: StepExits,
  extra: {
    readonly guard?: Guard;
    readonly onApproved?: MachineAction;
    readonly onRejected?: MachineAction;
  } = {},
): TransitionSpec[] {
  const eligible: Guard = (args) =>
    (extra.guard?.(args) ?? true) && isEligibleDecision(rules, args);
  const isReject: Guard = ({ event }) => (event as Decision).decision === 'reject';
  const reachesQuorum: Guard = ({ context, event }) => {
    const decisions = [
      ...(context.approvals[rules.step] ?? []),
      { approver: (event as Decision).approver, decision: 'approve' } as ApprovalDecision,
    ];
    return approvingCount(decisions) >= rules.quorum;
  };
  const record = recordDecision(rules.step);
  return [
    ...withGuard(
      exits.failure(rules.onReject, rules.rejectCause, [
        record,
        ...(extra.onRejected ? [extra.onRejected] : []),
        decisionFact('approval.rejected', rules),
      ]),
      (args) => eligible(args) && isReject(args),
    ),
    ...withGuard(
      exits.success([
        record,
        ...(extra.onApproved ? [extra.onApproved] : []),
        decisionFact('approval.granted', rules),
      ]),
      (args) => eligible(args) && reachesQuorum(args),
    ),
    { guard: eligible, actions: [record, decisionFact('approval.recorded', rules)] },
  ];
}

/** Actions that open a new attempt of a waiting step: count it and clear its decisions. */
export function beginAttempt(step: string): MachineAction {
  return update(({ context }) => ({
    attempts: { ...context.attempts, [step]: (context.attempts[step] ?? 0) + 1 },
    approvals: { ...context.approvals, [step]: [] },
  }));
}

/** Guard: a timer for this step's current attempt. */
export function isTimerFor(step: string): Guard {
  return ({ context, event }) =>
    event.type === 'timer.fired' &&
    event.step === step &&
    event.attempt === (context.attempts[step] ?? 0);
}
