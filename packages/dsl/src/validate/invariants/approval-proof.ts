import { describePath, findPath, type FlowGraph } from '../../graph/flow-graph.js';
import type { ApprovalInvariant } from '../../schema/invariant-schema.js';
import type { ScenarioDefinition } from '../../schema/scenario-schema.js';
import type { InvariantViolation } from './violation.js';

/** What an approval step asks of its approvers. */
interface ApprovalTerms {
  readonly kind: string;
  readonly quorum?: number;
  readonly maker_checker?: boolean;
}

/**
 * Proves an approval invariant: the engine completes an approval step only when its
 * quorum of distinct approvers approved (and, with `maker_checker`, none of them approved
 * an earlier step), so every path completes an `approved` step with at least
 * `by_at_least` of them exactly when the step is an approval whose quorum is at least that
 * and, when the invariant asks for it, keeps earlier approvers out. One violation per
 * reachable step that falls short, with the shortest path to it.
 */
export function approvalViolations(
  scenario: ScenarioDefinition,
  graph: FlowGraph,
  invariant: ApprovalInvariant,
): InvariantViolation[] {
  const steps = new Map(
    scenario.stages.flatMap((stage) =>
      stage.steps.map((step) => [step.id, step as ApprovalTerms] as const),
    ),
  );
  const violations: InvariantViolation[] = [];
  for (const stepId of invariant.approved) {
    const step = steps.get(stepId);
    const path = findPath(graph, stepId);
    if (!step || !path) continue;
    const reached = describePath(path);
    const quorum = step.quorum ?? 1;
    const short =
      step.kind !== 'approval'
        ? `is a ${step.kind} step, which no quorum of approvers completes`
        : quorum < invariant.by_at_least
          ? `completes with ${quorum} approver${quorum === 1 ? '' : 's'} (its quorum), fewer than ${invariant.by_at_least}`
          : invariant.maker_checker && step.maker_checker !== true
            ? 'lets someone who approved an earlier step approve it (maker_checker is not set)'
            : undefined;
    if (short === undefined) continue;
    violations.push({
      message: `invariant "${invariant.id}": "${stepId}" ${short}: ${reached}`,
      path,
    });
  }
  return violations;
}
