import { isCompleting, type FlowGraph } from '../graph/flow-graph.js';

/** What a run waiting at a step has already done, over every path that reaches it. */
export interface CompletedBefore {
  /** Steps completed on every path from the start to the step. */
  readonly always: ReadonlySet<string>;
  /** Steps completed on some path from the start to the step. */
  readonly sometimes: ReadonlySet<string>;
}

/**
 * For each main-flow step a run can reach, the steps completed before it starts: on every
 * path (`always`) and on some path (`sometimes`). A fixpoint over the graph's edges
 * between steps; a step is completed when it is left by a success or a route choice.
 */
export function completedBefore(graph: FlowGraph): Map<string, CompletedBefore> {
  const always = new Map<string, Set<string>>([[graph.start, new Set()]]);
  const sometimes = new Map<string, Set<string>>([[graph.start, new Set()]]);
  for (let changed = true; changed;) {
    changed = false;
    for (const id of graph.order) {
      const mustHere = always.get(id);
      const mayHere = sometimes.get(id);
      if (!mustHere || !mayHere) continue;
      for (const edge of graph.steps.get(id)!.outgoing) {
        if (!graph.steps.has(edge.to) || graph.compensations.includes(edge.to)) continue;
        const done = isCompleting(edge) ? [id] : [];
        const must = new Set([...mustHere, ...done]);
        const may = new Set([...mayHere, ...done]);
        const mustThere = always.get(edge.to);
        if (!mustThere) {
          always.set(edge.to, must);
          sometimes.set(edge.to, may);
          changed = true;
          continue;
        }
        for (const step of mustThere)
          if (!must.has(step)) {
            mustThere.delete(step);
            changed = true;
          }
        const mayThere = sometimes.get(edge.to)!;
        for (const step of may)
          if (!mayThere.has(step)) {
            mayThere.add(step);
            changed = true;
          }
      }
    }
  }
  return new Map(
    [...always].map(([id, must]) => [id, { always: must, sometimes: sometimes.get(id)! }]),
  );
}
