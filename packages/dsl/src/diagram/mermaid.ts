import {
  diagramModel,
  type DiagramEdge,
  type DiagramNode,
  type DiagramSource,
} from './diagram-model.js';

/** Mermaid opening and closing brackets of each node shape. */
const SHAPES: Readonly<Record<DiagramNode['shape'], readonly [string, string]>> = {
  check: ['{{', '}}'], // hexagon
  record: ['[/', '/]'], // parallelogram
  route: ['{', '}'], // rhombus
  approval: ['([', '])'], // stadium: waits for people
  handoff: ['[[', ']]'], // subroutine: waits for a partner
  wait: ['((', '))'], // circle: waits for a timer
  start: ['((', '))'],
  complete: ['(((', ')))'],
  fault: ['(((', ')))'],
  compensate: ['(((', ')))'],
  cancel: ['(((', ')))'],
};

const ARROWS: Readonly<Record<DiagramEdge['style'], string>> = {
  success: '-->',
  other: '-.->',
  registers: '-.-',
};

/** Text safe inside a quoted Mermaid label: entity codes for quotes, markup, backticks and `#`. */
function escape(text: string): string {
  return text
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/`/g, '#96;') // a leading backtick would start a Markdown string
    .replace(/\r?\n/g, ' ');
}

function nodeLine(node: DiagramNode): string {
  const [open, close] = SHAPES[node.shape];
  const caption = node.caption === '' ? '' : `<br/><i>${escape(node.caption)}</i>`;
  return `${node.id}${open}"${escape(node.title)}${caption}"${close}`;
}

function edgeLine(edge: DiagramEdge): string {
  const label = edge.label === '' ? '' : `|"${escape(edge.label)}"|`;
  return `${edge.from} ${ARROWS[edge.style]}${label} ${edge.to}`;
}

const CLASSES = [
  'classDef waits fill:#eef6ff,stroke:#0969da',
  'classDef complete fill:#dafbe1,stroke:#1a7f37',
  'classDef fault fill:#ffebe9,stroke:#cf222e',
  'classDef compensate fill:#fff1e5,stroke:#bc4c00',
  'classDef cancel fill:#eaeef2,stroke:#57606a',
];

/**
 * The scenario as a Mermaid `flowchart TD`: a subgraph per stage and one for the
 * compensations; a node per step with its title and kind, shaped by kind (hexagon check,
 * parallelogram record, rhombus route; waits: stadium approval, subroutine handoff,
 * circle wait); dotted edges for skips and failure paths labelled by kind, route edges
 * by alternative, `compensated by` from a handoff to its compensation; double circles
 * for the endings. Same input, same text.
 *
 * @example
 * ```ts
 * const text = scenarioMermaid(compile(yaml));
 * // flowchart TD
 * //   run_start(("start"))
 * //   subgraph stage_intake["Intake and screening"]
 * //     step_amount_gate{{"Amount within demo limits<br/><i>check</i>"}}
 * //   …
 * ```
 */
export function scenarioMermaid(source: DiagramSource): string {
  const model = diagramModel(source);
  const lines = ['flowchart TD'];
  const indent = (depth: number, text: string): string => `${'  '.repeat(depth)}${text}`;
  const byId = new Map(model.nodes.map((node) => [node.id, node]));
  for (const node of model.nodes)
    if (node.cluster === null && node.role === 'start') lines.push(indent(1, nodeLine(node)));
  for (const cluster of model.clusters) {
    lines.push(indent(1, `subgraph ${cluster.id}["${escape(cluster.title)}"]`));
    lines.push(indent(2, 'direction TB'));
    for (const id of cluster.nodes) lines.push(indent(2, nodeLine(byId.get(id)!)));
    lines.push(indent(1, 'end'));
  }
  for (const node of model.nodes) if (node.role === 'ending') lines.push(indent(1, nodeLine(node)));
  for (const edge of model.edges) lines.push(indent(1, edgeLine(edge)));
  lines.push(...CLASSES.map((line) => indent(1, line)));
  const waits = model.nodes.filter((node) => ['approval', 'handoff', 'wait'].includes(node.shape));
  if (waits.length > 0)
    lines.push(indent(1, `class ${waits.map((node) => node.id).join(',')} waits`));
  for (const node of model.nodes)
    if (node.role === 'ending') lines.push(indent(1, `class ${node.id} ${node.shape}`));
  return `${lines.join('\n')}\n`;
}
