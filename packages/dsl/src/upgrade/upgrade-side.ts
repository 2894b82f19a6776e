import type { FlowGraph } from '../graph/flow-graph.js';
import type { LoadedScenario } from '../load-scenario.js';
import type { YamlSource } from '../source/yaml-source.js';

const WAITING = new Set(['approval', 'handoff', 'wait']);

/** One version of the scenario with its source, for positions. */
export interface Side {
  readonly scenario: LoadedScenario;
  readonly source: YamlSource;
}

/** The YAML path of a step (or compensation) of a scenario, for positions. */
export function stepPath(scenario: LoadedScenario, id: string): (string | number)[] {
  const { stages, compensations } = scenario.definition;
  for (const [stage, { steps }] of stages.entries()) {
    const index = steps.findIndex((step) => step.id === id);
    if (index >= 0) return ['stages', stage, 'steps', index];
  }
  const index = compensations.findIndex((step) => step.id === id);
  return index >= 0 ? ['compensations', index] : [];
}

/** Whether a run can rest at a step: an approval, a handoff, a wait, or a check with a review. */
export function waitsAt(graph: FlowGraph, id: string): boolean {
  const step = graph.steps.get(id)!;
  return (
    WAITING.has(step.kind) ||
    (step.kind === 'check' && 'review' in step.definition && step.definition.review !== undefined)
  );
}
