import type { Problem } from '../problem.js';
import type { YamlSource } from '../source/yaml-source.js';
import { findPath, type FlowEdge, type FlowGraph } from '../graph/flow-graph.js';

type StepPaths = ReadonlyMap<string, (string | number)[]>;

/** Edges that can be taken without waiting for a signal or a timer. */
function isInstant(graph: FlowGraph, edge: FlowEdge): boolean {
  const step = graph.steps.get(edge.from);
  if (!step) return false;
  if (edge.kind === 'skip' || edge.kind === 'exhausted') return true;
  if (step.kind === 'check') return edge.kind === 'success' || edge.kind === 'fail';
  return !step.waits;
}

/**
 * Reports steps no path reaches, compensations nothing registers, and loops that could
 * spin without ever waiting (the machine would never settle).
 */
export function checkFlow(graph: FlowGraph, source: YamlSource, stepPaths: StepPaths): Problem[] {
  const problems: Problem[] = [];
  for (const id of graph.order) {
    if (id === graph.start || findPath(graph, id)) continue;
    problems.push(
      source.problemAt(
        'unreachable_step',
        `no path from "${graph.start}" reaches "${id}"; link it with next, a route alternative or a failure path`,
        stepPaths.get(id) ?? [],
      ),
    );
  }
  const registered = new Set(
    [...graph.steps.values()].flatMap((step) =>
      step.definition.kind === 'handoff' && step.stage !== null && step.definition.compensate
        ? [step.definition.compensate]
        : [],
    ),
  );
  for (const id of graph.compensations) {
    if (registered.has(id)) continue;
    problems.push(
      source.problemAt(
        'unreachable_step',
        `no handoff names "${id}" in compensate, so it never runs`,
        stepPaths.get(id) ?? [],
      ),
    );
  }
  problems.push(...findInstantLoops(graph, source, stepPaths));
  return problems;
}

function findInstantLoops(graph: FlowGraph, source: YamlSource, stepPaths: StepPaths): Problem[] {
  const state = new Map<string, 'visiting' | 'done'>();
  const reported = new Set<string>();
  const problems: Problem[] = [];
  const stack: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const edge of graph.steps.get(id)?.outgoing ?? []) {
      if (!graph.steps.has(edge.to) || !isInstant(graph, edge)) continue;
      const seen = state.get(edge.to);
      if (seen === 'visiting' && !reported.has(edge.to)) {
        reported.add(edge.to);
        const cycle = [...stack.slice(stack.indexOf(edge.to)), edge.to].join(' → ');
        problems.push(
          source.problemAt(
            'infinite_loop',
            `loop ${cycle} never waits for a signal or timer; put an approval, handoff or wait in it`,
            stepPaths.get(edge.to) ?? [],
          ),
        );
      } else if (seen === undefined) {
        visit(edge.to);
      }
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of graph.order) if (!state.has(id)) visit(id);
  return problems;
}
