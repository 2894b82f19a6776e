import type { CompiledScenario, FlowEdge } from '@programrun/dsl';

/** What kind of thing an edge is: a way out of a step, a rule's outcome, a retry, a compensation. */
export type ScenarioEdgeKind = 'flow' | 'rule' | 'attempt' | 'compensation';

/**
 * One thing a run of the scenario can do that a check should see at least once: leave a
 * step one way (each outcome, each route alternative, a skip, an exhausted retry loop),
 * a gate's rule passing or failing, a step started again (attempt 2 up to its
 * `max_attempts`), or a compensation that completed.
 */
export interface ScenarioEdge {
  /** Stable id, e.g. `lock_fx_quote timeout`, `route_scheme route bilateral_link`, `qr_intake rule cross_border fail`, `debit_payer attempt 2`, `refund_payer compensation`. */
  readonly id: string;
  readonly kind: ScenarioEdgeKind;
  /** The step (or compensation) it belongs to. */
  readonly step: string;
  /** In words, with where it leads, e.g. `lock_fx_quote: timeout → refund_payer`. */
  readonly label: string;
}

/** The id of a flow edge: `<step> <kind>`, and the alternative for a route. */
export const flowEdgeId = (edge: Pick<FlowEdge, 'from' | 'kind' | 'alternative'>): string =>
  edge.alternative === undefined
    ? `${edge.from} ${edge.kind}`
    : `${edge.from} ${edge.kind} ${edge.alternative}`;

/** The id of a gate rule's outcome. */
export const ruleEdgeId = (step: string, rule: string, outcome: 'pass' | 'fail'): string =>
  `${step} rule ${rule} ${outcome}`;

/** The id of a step's `attempt`-th start (2 and up). */
export const attemptEdgeId = (step: string, attempt: number): string =>
  `${step} attempt ${attempt}`;

/** The id of a compensation step run. */
export const compensationEdgeId = (step: string): string => `${step} compensation`;

/**
 * Every edge of a scenario, from its compiled flow graph, in document order: each main
 * step's ways out (`FlowEdge`s), then each check step's rules (pass and fail), the
 * re-entries its `max_attempts` allows, and last the compensation steps.
 *
 * @example
 * ```ts
 * const edges = scenarioEdges(compiled);
 * edges.find((edge) => edge.id === 'lock_fx_quote timeout')?.label; // 'lock_fx_quote: timeout → …'
 * ```
 */
export function scenarioEdges(compiled: CompiledScenario): ScenarioEdge[] {
  const { graph } = compiled;
  const edges: ScenarioEdge[] = [];
  for (const id of graph.order) {
    const step = graph.steps.get(id);
    if (!step) continue;
    for (const edge of step.outgoing) {
      const how = edge.alternative === undefined ? edge.kind : `${edge.kind} ${edge.alternative}`;
      edges.push({
        id: flowEdgeId(edge),
        kind: 'flow',
        step: id,
        label: `${id}: ${how} → ${edge.to}`,
      });
    }
    const definition = step.definition;
    if (definition.kind === 'check') {
      for (const rule of definition.rules) {
        for (const outcome of ['pass', 'fail'] as const) {
          edges.push({
            id: ruleEdgeId(id, rule, outcome),
            kind: 'rule',
            step: id,
            label: `${id}: rule ${rule} ${outcome === 'pass' ? 'passes' : 'fails'}`,
          });
        }
      }
    }
    const maxAttempts = 'max_attempts' in definition ? definition.max_attempts : undefined;
    for (let attempt = 2; attempt <= (maxAttempts ?? 1); attempt += 1) {
      edges.push({
        id: attemptEdgeId(id, attempt),
        kind: 'attempt',
        step: id,
        label: `${id}: attempt ${attempt} of ${maxAttempts}`,
      });
    }
  }
  for (const id of graph.compensations) {
    edges.push({
      id: compensationEdgeId(id),
      kind: 'compensation',
      step: id,
      label: `${id}: compensation completed`,
    });
  }
  return dedupe(edges);
}

/** Keeps the first of edges sharing an id (a step listed twice is reported by validate). */
function dedupe(edges: ScenarioEdge[]): ScenarioEdge[] {
  const seen = new Set<string>();
  return edges.filter((edge) => !seen.has(edge.id) && Boolean(seen.add(edge.id)));
}
