import {
  describePath,
  findPath,
  isCompleting,
  type FlowGraph,
  type FlowPath,
} from '../../graph/flow-graph.js';
import type { ExclusionInvariant } from '../../schema/invariant-schema.js';
import type { InvariantViolation } from './violation.js';

/**
 * The shortest path from the start that completes `first` and then enters `second`
 * (which can always complete: every step kind has a success or route edge).
 */
function completesBoth(graph: FlowGraph, first: string, second: string): FlowPath | undefined {
  const prefix = findPath(graph, first);
  if (!prefix) return undefined;
  let best: FlowPath | undefined;
  for (const edge of graph.steps.get(first)?.outgoing ?? []) {
    if (!isCompleting(edge)) continue;
    const suffix = findPath(graph, second, undefined, edge.to);
    if (!suffix) continue;
    const path = [...prefix, { step: edge.to, via: edge.kind }, ...suffix.slice(1)];
    if (!best || path.length < best.length) best = path;
  }
  return best;
}

/**
 * Proves an exclusion invariant over every path: no path from the start completes two
 * different steps of `never_together` (a refund and a payout, say). One violation per
 * pair that some path completes both of, with the shortest such path; the path ends
 * where the second step is entered, and that step can then complete.
 */
export function exclusionViolations(
  graph: FlowGraph,
  invariant: ExclusionInvariant,
): InvariantViolation[] {
  const steps = [...new Set(invariant.never_together)];
  const violations: InvariantViolation[] = [];
  steps.forEach((left, index) => {
    for (const right of steps.slice(index + 1)) {
      const candidates = [completesBoth(graph, left, right), completesBoth(graph, right, left)];
      const path = candidates.reduce<FlowPath | undefined>(
        (best, candidate) =>
          candidate && (!best || candidate.length < best.length) ? candidate : best,
        undefined,
      );
      if (!path) continue;
      violations.push({
        message: `invariant "${invariant.id}": "${left}" and "${right}" can both complete in one run: ${describePath(path)}`,
        path,
      });
    }
  });
  return violations;
}
