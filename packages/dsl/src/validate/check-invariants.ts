import type { Problem } from '../problem.js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { YamlSource } from '../source/yaml-source.js';
import { describePath, findPath, type FlowGraph } from '../graph/flow-graph.js';

/** Edge kinds that leave a step completed. */
const COMPLETING = new Set(['success', 'route']);

/**
 * Proves each invariant over every path of the graph: for `before: [B…] then: [T…]`, no
 * path from the start may enter any T without every B having completed. A B completes
 * only by a success or route edge; skipping it or failing out of it does not count.
 * Violations come with the shortest counterexample path.
 */
export function checkInvariants(
  scenario: ScenarioDefinition,
  graph: FlowGraph,
  source: YamlSource,
): Problem[] {
  const problems: Problem[] = [];
  scenario.invariants.forEach((invariant, index) => {
    let known = true;
    for (const field of ['before', 'then'] as const) {
      invariant[field].forEach((stepId, position) => {
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
    for (const target of invariant.then) {
      for (const required of invariant.before) {
        const path =
          target === required
            ? [{ step: target, via: 'start' as const }]
            : findPath(
                graph,
                target,
                (edge) => edge.from !== required || !COMPLETING.has(edge.kind),
              );
        if (!path) continue;
        problems.push(
          source.problemAt(
            'invariant_violated',
            `invariant "${invariant.id}": "${target}" can start before "${required}" completes: ${describePath(path)}`,
            ['invariants', index],
          ),
        );
      }
    }
  });
  return problems;
}
