import { buildFlowGraph, type EdgeKind, type FlowGraph } from '../graph/flow-graph.js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { StepKind } from '../schema/step-schema.js';

/** What a diagram can be drawn from: a definition, or anything holding one (loaded or compiled). */
export type DiagramSource =
  ScenarioDefinition | { readonly definition: ScenarioDefinition; readonly graph?: FlowGraph };

/** Run endings a flow can reach. */
export type DiagramEnding = 'complete' | 'fault' | 'compensate' | 'cancel';

/** A box of the diagram: a step, the start, or an ending. */
export interface DiagramNode {
  /** Diagram id, safe in Mermaid and XML: `step_<id>`, `ending_<name>` or `run_start`. */
  readonly id: string;
  readonly role: 'step' | 'start' | 'ending';
  /** Step kind, `start`, or the ending's name. */
  readonly shape: StepKind | 'start' | DiagramEnding;
  /** Step id, or the ending's name. */
  readonly name: string;
  readonly title: string;
  /** Second line: the step kind (empty for the start and endings). */
  readonly caption: string;
  /** Cluster id (`stage_<id>` or `compensations`), or null outside any cluster. */
  readonly cluster: string | null;
}

/** A stage, or the compensations, drawn as a group of nodes. */
export interface DiagramCluster {
  readonly id: string;
  readonly title: string;
  readonly nodes: readonly string[];
}

/**
 * How an edge is drawn: `success` for successes, route choices and the start; `other`
 * for skips and failure paths; `registers` from a handoff to the compensation it registers.
 */
export type DiagramEdgeStyle = 'success' | 'other' | 'registers';

/** An arrow; parallel flow edges with the same style are merged and their labels joined. */
export interface DiagramEdge {
  readonly from: string;
  readonly to: string;
  /** Empty for plain success; edge kinds (`reject / timeout`), route alternatives, `compensated by`. */
  readonly label: string;
  readonly style: DiagramEdgeStyle;
  /** The graph edge kinds drawn by this arrow (`registers` for compensation registration). */
  readonly kinds: readonly (EdgeKind | 'start' | 'registers')[];
}

/** The graph of a scenario as both diagram renderers draw it. */
export interface DiagramModel {
  /** `<scenario>@<version>`. */
  readonly id: string;
  readonly title: string;
  readonly nodes: readonly DiagramNode[];
  readonly clusters: readonly DiagramCluster[];
  readonly edges: readonly DiagramEdge[];
}

const ENDINGS: readonly DiagramEnding[] = ['complete', 'fault', 'compensate', 'cancel'];
const nodeId = (target: string): string =>
  (ENDINGS as readonly string[]).includes(target) ? `ending_${target}` : `step_${target}`;

/**
 * Builds the diagram model shared by {@link scenarioMermaid} and {@link scenarioSvg}: one
 * cluster per stage and one for compensations, a node per step, the endings the flow
 * reaches, edges labelled by kind, in document order (deterministic).
 *
 * @example
 * ```ts
 * diagramModel(loaded).clusters.map((cluster) => cluster.title); // ['Intake and funds hold', …, 'Compensations']
 * ```
 */
export function diagramModel(source: DiagramSource): DiagramModel {
  const definition = 'definition' in source ? source.definition : source;
  const graph = ('definition' in source ? source.graph : undefined) ?? buildFlowGraph(definition);
  const nodes: DiagramNode[] = [
    {
      id: 'run_start',
      role: 'start',
      shape: 'start',
      name: 'start',
      title: 'start',
      caption: '',
      cluster: null,
    },
  ];
  const clusters: DiagramCluster[] = [];
  const stepNode = (id: string, cluster: string): DiagramNode | undefined => {
    const step = graph.steps.get(id);
    if (!step) return undefined;
    return {
      id: nodeId(id),
      role: 'step',
      shape: step.kind,
      name: id,
      title: step.title,
      caption: step.kind,
      cluster,
    };
  };
  const seen = new Set<string>();
  const addCluster = (id: string, title: string, stepIds: readonly string[]): void => {
    const members = stepIds.flatMap((stepId) => {
      if (seen.has(stepId)) return [];
      seen.add(stepId);
      const node = stepNode(stepId, id);
      return node ? [node] : [];
    });
    nodes.push(...members);
    clusters.push({ id, title, nodes: members.map((node) => node.id) });
  };
  for (const stage of graph.stages) addCluster(`stage_${stage.id}`, stage.title, stage.steps);
  if (graph.compensations.length > 0)
    addCluster('compensations', 'Compensations', graph.compensations);

  const edges = flowEdges(graph);
  const reached = new Set(edges.map((edge) => edge.to));
  for (const ending of ENDINGS) {
    if (!reached.has(nodeId(ending))) continue;
    nodes.push({
      id: nodeId(ending),
      role: 'ending',
      shape: ending,
      name: ending,
      title: ending,
      caption: '',
      cluster: null,
    });
  }
  return {
    id: `${definition.scenario}@${definition.version}`,
    title: definition.title,
    nodes,
    clusters,
    edges,
  };
}

const OTHER_KINDS = new Set<EdgeKind>([
  'skip',
  'reject',
  'timeout',
  'fail',
  'no_route',
  'exhausted',
]);

/** Edges of the flow, merged per (from, to, style), in document order. */
function flowEdges(graph: FlowGraph): DiagramEdge[] {
  const merged = new Map<
    string,
    {
      from: string;
      to: string;
      style: DiagramEdgeStyle;
      labels: string[];
      kinds: DiagramEdge['kinds'][number][];
    }
  >();
  const add = (
    from: string,
    to: string,
    style: DiagramEdgeStyle,
    label: string,
    kind: DiagramEdge['kinds'][number],
  ): void => {
    const key = `${from}\u0000${to}\u0000${style}`;
    const entry = merged.get(key) ?? { from, to, style, labels: [], kinds: [] };
    if (label !== '' && !entry.labels.includes(label)) entry.labels.push(label);
    entry.kinds.push(kind);
    merged.set(key, entry);
  };
  if (graph.steps.has(graph.start)) add('run_start', nodeId(graph.start), 'success', '', 'start');
  else add('run_start', nodeId('complete'), 'success', '', 'start');
  for (const id of new Set([...graph.order, ...graph.compensations])) {
    const step = graph.steps.get(id);
    if (!step) continue;
    for (const edge of step.outgoing) {
      const to = graph.steps.has(edge.to) || (ENDINGS as readonly string[]).includes(edge.to);
      if (!to) continue; // a dangling target is reported by the loader, not drawn
      const other = OTHER_KINDS.has(edge.kind);
      const label =
        edge.kind === 'route'
          ? (edge.alternative ?? 'route')
          : edge.kind === 'success'
            ? ''
            : edge.kind.replace('_', ' ');
      add(nodeId(id), nodeId(edge.to), other ? 'other' : 'success', label, edge.kind);
    }
    const definition = step.definition;
    if (
      definition.kind === 'handoff' &&
      definition.compensate &&
      graph.steps.has(definition.compensate)
    ) {
      add(nodeId(id), nodeId(definition.compensate), 'registers', 'compensated by', 'registers');
    }
  }
  return [...merged.values()].map(({ labels, ...edge }) => ({
    ...edge,
    label: labels.join(' / '),
  }));
}
