import type { CompiledScenario } from '@programrun/dsl';
import { grantsPartyScope, type StoredRun, type UnitOfWork } from '@programrun/engine';
import { approvalStepOf } from '../auth/authorize-approval.js';
import { insufficientScope } from '../auth/require-scope.js';
import { HttpError } from '../errors/http-error.js';
import type { RouteContext } from '../router.js';

/** The run and its scenario as this unit of work reads them; undefined when there is none. */
async function runWithScenario(
  uow: UnitOfWork,
  context: RouteContext,
  runId: string,
): Promise<{ run: StoredRun; compiled: CompiledScenario } | undefined> {
  const run = await uow.tx.getRun(uow.scope, runId);
  if (!run || !context.engine.scenarios.has(run.scenario_id)) return undefined;
  return { run, compiled: context.engine.scenarios.get(run.scenario_id) };
}

/**
 * Refuses a decision the host's `authorizeApproval` (by default the principal's
 * `approvals:decide` scopes) does not allow for the step, in the decision's own
 * transaction. A run or step that takes no decision is left to the engine to refuse.
 */
export async function authorizeDecision(
  uow: UnitOfWork,
  context: RouteContext,
  runId: string,
  stepId: string,
): Promise<void> {
  const found = await runWithScenario(uow, context, runId);
  const step = found && approvalStepOf(found.compiled, stepId);
  if (!found || !step) return;
  const { principal } = context;
  if (!(await context.authorizeApproval(principal, found.run.record, step))) {
    throw new HttpError(
      'approver_not_authorized',
      `${principal.actor} (credential ${principal.credentialId}) may not decide "${stepId}", which ${step.approvers.join(' or ')} approve.`,
    );
  }
}

/**
 * Refuses a partner answer from a principal whose `handoffs:answer` scopes do not cover
 * the step's party (`handoffs:answer` or `handoffs:answer:<party>`).
 */
export async function authorizeAnswer(
  uow: UnitOfWork,
  context: RouteContext,
  runId: string,
  stepId: string,
): Promise<void> {
  const found = await runWithScenario(uow, context, runId);
  const step = found?.compiled.graph.steps.get(stepId)?.definition;
  if (step?.kind !== 'handoff') return;
  const { principal } = context;
  if (!grantsPartyScope(principal.scopes, 'handoffs:answer', [step.party])) {
    throw insufficientScope(
      `handoffs:answer:${step.party}`,
      `Answering "${stepId}" needs handoffs:answer or handoffs:answer:${step.party}, which credential ${principal.credentialId} does not hold.`,
    );
  }
}
