import {
  describePath,
  findPath,
  isCompleting,
  type FlowEdge,
  type FlowGraph,
  type FlowPath,
} from '../../graph/flow-graph.js';
import type { ResponseInvariant } from '../../schema/invariant-schema.js';
import type { InvariantViolation } from './violation.js';

/** The shortest path from `after`'s completion to `complete` that completes no step of `eventually`. */
function completesWithout(
  graph: FlowGraph,
  after: string,
  eventually: ReadonlySet<string>,
): FlowPath | undefined {
  if (!findPath(graph, after)) return undefined; // never runs: unreachable_step says so
  const avoid = (edge: FlowEdge): boolean => !eventually.has(edge.from) || !isCompleting(edge);
  let best: FlowPath | undefined;
  for (const edge of graph.steps.get(after)?.outgoing ?? []) {
    if (!isCompleting(edge)) continue;
    const rest = findPath(graph, 'complete', avoid, edge.to); // edge.to may be `complete`
    if (!rest) continue;
    const path = [
      { step: after, via: 'start' as const },
      { step: edge.to, via: edge.kind },
      ...rest.slice(1),
    ];
    if (!best || path.length < best.length) best = path;
  }
  return best;
}

/**
 * Proves a response invariant over every path: once an `after` step completes, every
 * path that goes on to the `complete` ending completes at least one `eventually` step
 * on the way (e.g. every mint is reconciled before the run completes). Paths that end in
 * `fault`, `compensate` or `cancel` are not bound. One violation per `after` step, with
 * the shortest path from its completion to `complete` that completes no `eventually` step.
 */
export function responseViolations(
  graph: FlowGraph,
  invariant: ResponseInvariant,
): InvariantViolation[] {
  const eventually = new Set(invariant.eventually);
  const wanted = invariant.eventually.map((step) => `"${step}"`).join(' or ');
  return [...new Set(invariant.after)].flatMap((after) => {
    const path = completesWithout(graph, after, eventually);
    if (!path) return [];
    return [
      {
        message: `invariant "${invariant.id}": after "${after}" completes, the run can end complete without completing ${wanted} (runs ending fault, compensate or cancel are exempt): ${describePath(path)}`,
        path,
      },
    ];
  });
}
