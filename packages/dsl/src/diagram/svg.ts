import { diagramModel, type DiagramSource } from './diagram-model.js';
import {
  layoutDiagram,
  type PlacedCluster,
  type PlacedEdge,
  type PlacedNode,
} from './svg-layout.js';
import { nodeShape } from './svg-shapes.js';
import { escapeXml, FONT_SIZE, formatNumber as n, LINE_HEIGHT } from './svg-text.js';

const DASH: Readonly<Record<PlacedEdge['edge']['style'], string>> = {
  success: '',
  other: ' stroke-dasharray="6 4"',
  registers: ' stroke-dasharray="2 3"',
};

function clusterSvg({ cluster, x, y, width, height }: PlacedCluster): string {
  const left = x - width / 2;
  const top = y - height / 2;
  const fill = cluster.id === 'compensations' ? '#fff8f0' : '#f6f8fa';
  return [
    `<g class="cluster" data-cluster="${escapeXml(cluster.id)}">`,
    `<rect x="${n(left)}" y="${n(top)}" width="${n(width)}" height="${n(height)}" rx="6" fill="${fill}" stroke="#d0d7de"/>`,
    `<text x="${n(left + 8)}" y="${n(top + 14)}" font-size="11" font-weight="600" fill="#57606a">${escapeXml(cluster.title)}</text>`,
    '</g>',
  ].join('');
}

function edgeSvg({ edge, points, label }: PlacedEdge): string {
  const [first, ...rest] = points;
  const path = first
    ? `M${n(first.x)},${n(first.y)}${rest.map((point) => ` L${n(point.x)},${n(point.y)}`).join('')}`
    : '';
  const marker = edge.style === 'registers' ? '' : ' marker-end="url(#arrow)"';
  const parts = [
    `<g class="edge" data-from="${escapeXml(edge.from)}" data-to="${escapeXml(edge.to)}" data-kinds="${escapeXml(edge.kinds.join(' '))}">`,
    `<path d="${path}" fill="none" stroke="#57606a"${DASH[edge.style]}${marker}/>`,
  ];
  if (label) {
    parts.push(
      `<text x="${n(label.x)}" y="${n(label.y + 4)}" text-anchor="middle" font-size="11" fill="#24292f" stroke="#ffffff" stroke-width="3" paint-order="stroke">${escapeXml(edge.label)}</text>`,
    );
  }
  parts.push('</g>');
  return parts.join('');
}

function nodeSvg(placed: PlacedNode): string {
  const { node, x, y, lines } = placed;
  const all = node.caption === '' ? lines : [...lines, node.caption];
  const top = y - ((all.length - 1) * LINE_HEIGHT) / 2 + FONT_SIZE / 3;
  const colour = node.shape === 'start' ? '#ffffff' : '#24292f';
  const text =
    node.role === 'start'
      ? ''
      : `<text text-anchor="middle" fill="${colour}">${all
          .map((line, index) => {
            const caption = node.caption !== '' && index === all.length - 1;
            const style = caption ? ' font-style="italic" fill="#57606a"' : '';
            return `<tspan x="${n(x)}" y="${n(top + index * LINE_HEIGHT)}"${style}>${escapeXml(line)}</tspan>`;
          })
          .join('')}</text>`;
  const step = node.role === 'step' ? ` data-step="${escapeXml(node.name)}"` : '';
  return `<g class="node ${node.role}" id="${escapeXml(node.id)}"${step} data-shape="${node.shape}">${nodeShape(placed)}${text}</g>`;
}

/**
 * The scenario's flow as a standalone SVG document, laid out with dagre and written
 * without a browser: the same nodes, clusters and edges as {@link scenarioMermaid}
 * (stages and compensations as boxes, a shape per step kind, dashed skips and failure
 * paths with their labels). Text is XML-escaped; the same input gives the same bytes.
 * Steps carry `data-step`, edges `data-from`/`data-to`/`data-kinds` for tooling.
 *
 * @example
 * ```ts
 * await writeFile('bank-payout.svg', scenarioSvg(loaded));
 * ```
 */
export function scenarioSvg(source: DiagramSource): string {
  const model = diagramModel(source);
  const placed = layoutDiagram(model);
  const width = n(Math.ceil(placed.width));
  const height = n(Math.ceil(placed.height));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="${FONT_SIZE}" role="img" aria-labelledby="diagram-title">`,
    `<title id="diagram-title">${escapeXml(`${model.title} (${model.id})`)}</title>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#57606a"/></marker></defs>',
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...placed.clusters.map(clusterSvg),
    ...placed.edges.map(edgeSvg),
    ...placed.nodes.map(nodeSvg),
    '</svg>',
    '',
  ].join('\n');
}
