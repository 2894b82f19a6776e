import type { Problem } from '../problem.js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { YamlSource } from '../source/yaml-source.js';
import type { FlowGraph } from '../graph/flow-graph.js';
import { invariantStepLists, type InvariantDefinition } from '../schema/invariant-schema.js';
import { precedenceViolations } from './invariants/precedence-proof.js';
import { exclusionViolations } from './invariants/exclusion-proof.js';
import { responseViolations } from './invariants/response-proof.js';
import { approvalViolations } from './invariants/approval-proof.js';
import type { InvariantViolation } from './invariants/violation.js';

/** The violations of one invariant, by its kind. */
function violationsOf(
  scenario: ScenarioDefinition,
  graph: FlowGraph,
  invariant: InvariantDefinition,
): InvariantViolation[] {
  if ('never_together' in invariant) return exclusionViolations(graph, invariant);
  if ('eventually' in invariant) return responseViolations(graph, invariant);
  if ('approved' in invariant) return approvalViolations(scenario, graph, invariant);
  return precedenceViolations(graph, invariant);
}

/**
 * Proves each invariant over every path of the graph (precedence, exclusion, response
 * and approval; see their proofs under `invariants/`). Steps an invariant names must be
 * steps of a stage (`invariant_unknown_step`); each violation is an `invariant_violated`
 * at the invariant with the shortest counterexample path in its message.
 */
export function checkInvariants(
  scenario: ScenarioDefinition,
  graph: FlowGraph,
  source: YamlSource,
): Problem[] {
  const problems: Problem[] = [];
  scenario.invariants.forEach((invariant, index) => {
    let known = true;
    for (const { field, steps } of invariantStepLists(invariant)) {
      steps.forEach((stepId, position) => {
        const step = graph.steps.get(stepId);
        if (step && step.stage !== null) return;
        known = false;
        problems.push(
          source.problemAt(
            'invariant_unknown_step',
            `invariant "${invariant.id}" names "${stepId}", which is not a step of any stage`,
            ['invariants', index, field, position],
          ),
        );
      });
    }
    if (!known) return;
    for (const violation of violationsOf(scenario, graph, invariant)) {
      problems.push(
        source.problemAt('invariant_violated', violation.message, ['invariants', index]),
      );
    }
  });
  return problems;
}
