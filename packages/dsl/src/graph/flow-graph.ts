import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { CompensationStep, StepDefinition, StepKind } from '../schema/step-schema.js';

/** How a step is left. `success` and `route` complete the step; the others do not. */
export type EdgeKind =
  'success' | 'route' | 'skip' | 'reject' | 'timeout' | 'fail' | 'no_route' | 'exhausted';

/** A transition between steps (or to an ending) in the scenario's flow. */
export interface FlowEdge {
  readonly from: string;
  /** A step id or `complete` | `fault` | `compensate`. */
  readonly to: string;
  readonly kind: EdgeKind;
  /** The route alternative, for `route` edges. */
  readonly alternative?: string;
}

/** A step as the graph sees it. */
export interface FlowStep {
  readonly id: string;
  readonly kind: StepKind;
  readonly title: string;
  /** Stage id; `null` for compensations. */
  readonly stage: string | null;
  readonly party: string | undefined;
  readonly definition: StepDefinition | CompensationStep;
  /** True for kinds that wait for a signal or a timer (approval, handoff, wait). */
  readonly waits: boolean;
  readonly outgoing: readonly FlowEdge[];
}

/** The stage / step graph of a scenario, the base of every static check and of the machine. */
export interface FlowGraph {
  /** First step of the first stage. */
  readonly start: string;
  /** Stages in order with their step ids. */
  readonly stages: readonly {
    readonly id: string;
    readonly title: string;
    readonly steps: readonly string[];
  }[];
  /** Every step, main flow and compensations, by id. */
  readonly steps: ReadonlyMap<string, FlowStep>;
  /** Main-flow step ids in document order. */
  readonly order: readonly string[];
  /** Compensation step ids. */
  readonly compensations: readonly string[];
}

/** Endings a flow target may name besides a step id. */
export const FLOW_ENDINGS = new Set(['complete', 'fault', 'compensate', 'cancel']);

const WAITING_KINDS = new Set<StepKind>(['approval', 'handoff', 'wait']);

function outgoingEdges(step: StepDefinition | CompensationStep, following: string): FlowEdge[] {
  const from = step.id;
  const success = step.next ?? following;
  const edges: FlowEdge[] = [];
  if (step.when !== undefined) edges.push({ from, to: following, kind: 'skip' });
  if ('max_attempts' in step && step.max_attempts !== undefined) {
    edges.push({ from, to: step.on_exhausted, kind: 'exhausted' });
  }
  switch (step.kind) {
    case 'check':
      edges.push({ from, to: success, kind: 'success' }, { from, to: step.on_fail, kind: 'fail' });
      if (step.review) {
        edges.push(
          { from, to: step.on_fail, kind: 'reject' },
          { from, to: step.review.on_timeout, kind: 'timeout' },
        );
      }
      break;
    case 'approval':
      edges.push(
        { from, to: success, kind: 'success' },
        { from, to: step.on_reject, kind: 'reject' },
        { from, to: step.on_timeout, kind: 'timeout' },
      );
      break;
    case 'handoff':
      edges.push(
        { from, to: success, kind: 'success' },
        { from, to: step.on_reject, kind: 'reject' },
        { from, to: step.on_fail, kind: 'fail' },
        { from, to: step.on_timeout, kind: 'timeout' },
      );
      break;
    case 'route':
      for (const alternative of step.alternatives) {
        edges.push({
          from,
          to: alternative.next ?? success,
          kind: 'route',
          alternative: alternative.id,
        });
      }
      edges.push({ from, to: step.on_no_route, kind: 'no_route' });
      break;
    case 'record':
    case 'wait':
      edges.push({ from, to: success, kind: 'success' });
      break;
  }
  return edges;
}

/**
 * Builds the flow graph: each step's outgoing edges, with the default successor being the
 * next step in document order (across stages) and `complete` after the last one.
 *
 * @example
 * ```ts
 * const graph = buildFlowGraph(scenario);
 * graph.steps.get('arm_scheme_call')?.outgoing; // [{ to: 'route_scheme', kind: 'success' }, …]
 * ```
 */
export function buildFlowGraph(scenario: ScenarioDefinition): FlowGraph {
  const mainSteps = scenario.stages.flatMap((stage) =>
    stage.steps.map((step) => ({ step, stage: stage.id })),
  );
  const steps = new Map<string, FlowStep>();
  mainSteps.forEach(({ step, stage }, index) => {
    const following = mainSteps[index + 1]?.step.id ?? 'complete';
    if (steps.has(step.id)) return; // duplicate ids are reported elsewhere; keep the first
    steps.set(step.id, toFlowStep(step, stage, outgoingEdges(step, following)));
  });
  for (const step of scenario.compensations) {
    if (!steps.has(step.id)) steps.set(step.id, toFlowStep(step, null, []));
  }
  return {
    start: mainSteps[0]?.step.id ?? 'complete',
    stages: scenario.stages.map((stage) => ({
      id: stage.id,
      title: stage.title,
      steps: stage.steps.map((step) => step.id),
    })),
    steps,
    order: mainSteps.map(({ step }) => step.id),
    compensations: scenario.compensations.map((step) => step.id),
  };
}

function toFlowStep(
  step: StepDefinition | CompensationStep,
  stage: string | null,
  outgoing: FlowEdge[],
): FlowStep {
  return {
    id: step.id,
    kind: step.kind,
    title: step.title,
    stage,
    party: 'party' in step ? step.party : undefined,
    definition: step,
    waits: WAITING_KINDS.has(step.kind),
    outgoing,
  };
}

/** A path through the graph: the steps entered, with the edge kind that led to each. */
export type FlowPath = readonly { readonly step: string; readonly via: EdgeKind | 'start' }[];

/**
 * Breadth-first search from the start (or from `from`) over the edges `allow` keeps;
 * returns the shortest path to `target` or `undefined` when it cannot be reached. The
 * target may be a step or an ending (`complete`, `fault`, `compensate`, `cancel`).
 *
 * @example
 * ```ts
 * findPath(graph, 'arm_scheme_call', (edge) => edge.from !== 'resolve_corridor' || edge.kind === 'skip');
 * findPath(graph, 'complete', undefined, 'mint_tokens'); // mint_tokens → … → complete
 * ```
 */
export function findPath(
  graph: FlowGraph,
  target: string,
  allow: (edge: FlowEdge) => boolean = () => true,
  from: string = graph.start,
): FlowPath | undefined {
  const parents = new Map<string, { from: string; via: EdgeKind } | null>([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (current === target) {
      const path: { step: string; via: EdgeKind | 'start' }[] = [];
      for (let node: string | undefined = current; node !== undefined;) {
        const parent = parents.get(node);
        path.unshift({ step: node, via: parent ? parent.via : 'start' });
        node = parent?.from;
      }
      return path;
    }
    for (const edge of graph.steps.get(current)?.outgoing ?? []) {
      if (!allow(edge) || parents.has(edge.to)) continue;
      if (!graph.steps.has(edge.to) && edge.to !== target) continue;
      parents.set(edge.to, { from: current, via: edge.kind });
      queue.push(edge.to);
    }
  }
  return undefined;
}

/**
 * True when leaving a step along `edge` means the step completed: a success or a route
 * choice. Skips and failure paths do not complete a step.
 *
 * @example
 * ```ts
 * graph.steps.get('hold_funds')!.outgoing.filter(isCompleting); // the success edge
 * ```
 */
export function isCompleting(edge: FlowEdge): boolean {
  return edge.kind === 'success' || edge.kind === 'route';
}

/**
 * Human form of a path: success steps by name, other edges with how the previous step ended.
 *
 * @example
 * ```ts
 * describePath([{ step: 'a', via: 'start' }, { step: 'b', via: 'skip' }]); // 'a → b (after a: skip)'
 * ```
 */
export function describePath(path: FlowPath): string {
  return path
    .map(({ step, via }, index) => {
      if (index === 0) return step;
      const previous = path[index - 1]!.step;
      return via === 'success' || via === 'route' ? step : `${step} (after ${previous}: ${via})`;
    })
    .join(' → ');
}
