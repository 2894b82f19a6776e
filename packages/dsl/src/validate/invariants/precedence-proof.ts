import { describePath, findPath, isCompleting, type FlowGraph } from '../../graph/flow-graph.js';
import type { PrecedenceInvariant } from '../../schema/invariant-schema.js';
import type { InvariantViolation } from './violation.js';

/**
 * Proves a precedence invariant over every path: for `before: [B…] then: [T…]`, no path
 * from the start may enter any T unless every B completed earlier on it. A B completes
 * only by a success or route edge; being skipped or failing out of it does not count.
 * One violation, with the shortest counterexample, per (T, B) pair that a path breaks.
 */
export function precedenceViolations(
  graph: FlowGraph,
  invariant: PrecedenceInvariant,
): InvariantViolation[] {
  const violations: InvariantViolation[] = [];
  for (const target of invariant.then) {
    for (const required of invariant.before) {
      const path =
        target === required
          ? [{ step: target, via: 'start' as const }]
          : findPath(graph, target, (edge) => edge.from !== required || !isCompleting(edge));
      if (!path) continue;
      violations.push({
        message: `invariant "${invariant.id}": "${target}" can start before "${required}" completes: ${describePath(path)}`,
        path,
      });
    }
  }
  return violations;
}
