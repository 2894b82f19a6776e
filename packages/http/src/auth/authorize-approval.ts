import type { CompiledScenario } from '@programrun/dsl';
import { grantsPartyScope, type RunRecord } from '@programrun/engine';
import type { Principal } from './principal.js';

/** The approval (or a check's policy review) a decision is for, as its scenario defines it. */
export interface ApprovalStepView {
  readonly id: string;
  /** `approval` for an approval step, `review` for the review of a check step. */
  readonly kind: 'approval' | 'review';
  /** Party ids whose people may decide (e.g. `payments_ops`). */
  readonly approvers: readonly string[];
  readonly quorum: number;
  readonly maker_checker: boolean;
}

/**
 * Decides whether a principal may decide an approval step of a run: true to let the
 * decision through (the engine still applies quorum and four eyes over distinct actors),
 * false to refuse it with `403 approver_not_authorized`. Hosts check the principal's
 * actor against the step's approver parties in their own directory.
 */
export type AuthorizeApproval = (
  principal: Principal,
  run: RunRecord,
  step: ApprovalStepView,
) => boolean | Promise<boolean>;

/**
 * The default {@link AuthorizeApproval}: the principal's scopes. `approvals:decide`
 * decides any step; `approvals:decide:<party>` only steps that party approves.
 *
 * @example
 * ```ts
 * createHandler({ engine, accounts, authorizeApproval: (principal, run, step) =>
 *   authorizeApprovalByScopes(principal, run, step) && principal.actor.startsWith('ops:') });
 * ```
 */
export const authorizeApprovalByScopes: AuthorizeApproval = (principal, _run, step) =>
  grantsPartyScope(principal.scopes, 'approvals:decide', step.approvers);

/**
 * The approval (or review) `stepId` of a scenario; undefined when the scenario has no such
 * step or the step takes no decisions (the engine then refuses the decision itself).
 */
export function approvalStepOf(
  compiled: CompiledScenario,
  stepId: string,
): ApprovalStepView | undefined {
  const step = compiled.graph.steps.get(stepId)?.definition;
  if (step?.kind === 'approval') {
    return {
      id: step.id,
      kind: 'approval',
      approvers: step.approvers,
      quorum: step.quorum,
      maker_checker: step.maker_checker,
    };
  }
  if (step?.kind === 'check' && step.review) {
    return {
      id: step.id,
      kind: 'review',
      approvers: step.review.approvers,
      quorum: step.review.quorum,
      maker_checker: false,
    };
  }
  return undefined;
}
