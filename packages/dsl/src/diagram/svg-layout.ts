import {
  Graph,
  layout,
  type EdgeLabel,
  type GraphLabel,
  type NodeLabel,
  type Point,
} from '@dagrejs/dagre';
import type { DiagramCluster, DiagramEdge, DiagramModel, DiagramNode } from './diagram-model.js';
import { LINE_HEIGHT, textWidth, wrapText } from './svg-text.js';

/** A node with its box (centre, size) and its title wrapped into lines. */
export interface PlacedNode {
  readonly node: DiagramNode;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly lines: readonly string[];
}

/** A cluster's box (centre, size). */
export interface PlacedCluster {
  readonly cluster: DiagramCluster;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** An edge's polyline and the centre of its label. */
export interface PlacedEdge {
  readonly edge: DiagramEdge;
  readonly points: readonly Point[];
  readonly label: Point | null;
}

/** Everything positioned, in the model's order. */
export interface DiagramLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly clusters: readonly PlacedCluster[];
  readonly edges: readonly PlacedEdge[];
}

/** Size of a node's box from its shape and text. */
function nodeSize(node: DiagramNode, lines: readonly string[]): { width: number; height: number } {
  const textLines = node.caption === '' ? lines.length : lines.length + 1;
  const text = Math.max(...lines.map(textWidth), textWidth(node.caption));
  switch (node.shape) {
    case 'start':
      return { width: 44, height: 44 };
    case 'complete':
    case 'fault':
    case 'compensate':
    case 'cancel':
      return { width: Math.max(textWidth(node.title) + 30, 64), height: 40 };
    case 'route':
      return { width: text * 1.3 + 40, height: textLines * LINE_HEIGHT + 40 };
    case 'wait':
      return { width: text + 44, height: textLines * LINE_HEIGHT + 26 };
    case 'check':
    case 'record':
      return { width: text + 48, height: textLines * LINE_HEIGHT + 18 };
    case 'approval':
    case 'handoff':
      return { width: text + 36, height: textLines * LINE_HEIGHT + 18 };
  }
}

/**
 * Lays the model out top to bottom with dagre (clusters as compound nodes). Insertion
 * follows the model's order, so the same model always gets the same layout.
 */
export function layoutDiagram(model: DiagramModel): DiagramLayout {
  const graph = new Graph<GraphLabel, NodeLabel, EdgeLabel>({ compound: true, multigraph: true });
  graph.setGraph({
    rankdir: 'TB',
    nodesep: 28,
    edgesep: 14,
    ranksep: 44,
    marginx: 16,
    marginy: 16,
  });
  const wrapped = new Map(model.nodes.map((node) => [node.id, wrapText(node.title)]));
  for (const cluster of model.clusters) graph.setNode(cluster.id, { width: 0, height: 0 });
  for (const node of model.nodes) {
    graph.setNode(node.id, nodeSize(node, wrapped.get(node.id)!));
    if (node.cluster !== null) graph.setParent(node.id, node.cluster);
  }
  model.edges.forEach((edge, index) => {
    const label: EdgeLabel =
      edge.label === ''
        ? { minlen: 1 }
        : { minlen: 1, width: textWidth(edge.label) + 8, height: LINE_HEIGHT + 2, labelpos: 'c' };
    graph.setEdge(edge.from, edge.to, label, `e${index}`);
  });
  layout(graph);
  const box = (id: string) => {
    const { x = 0, y = 0, width, height } = graph.node(id);
    return { x, y, width, height };
  };
  return {
    width: graph.graph().width ?? 0,
    height: graph.graph().height ?? 0,
    clusters: model.clusters.map((cluster) => ({ cluster, ...box(cluster.id) })),
    nodes: model.nodes.map((node) => ({ node, lines: wrapped.get(node.id)!, ...box(node.id) })),
    edges: model.edges.map((edge, index) => {
      const placed = graph.edge({ v: edge.from, w: edge.to, name: `e${index}` });
      const hasLabel = edge.label !== '' && placed.x !== undefined && placed.y !== undefined;
      return {
        edge,
        points: placed.points ?? [],
        label: hasLabel ? { x: placed.x!, y: placed.y! } : null,
      };
    }),
  };
}
