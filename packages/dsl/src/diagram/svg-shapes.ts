import type { PlacedNode } from './svg-layout.js';
import { formatNumber as n } from './svg-text.js';

const points = (corners: readonly (readonly [number, number])[]): string =>
  corners.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');

/** Fill and stroke of each shape: waits blue, endings by outcome. */
const PAINT: Readonly<Record<PlacedNode['node']['shape'], string>> = {
  check: 'fill="#ffffff" stroke="#57606a"',
  record: 'fill="#ffffff" stroke="#57606a"',
  route: 'fill="#ffffff" stroke="#57606a"',
  approval: 'fill="#eef6ff" stroke="#0969da"',
  handoff: 'fill="#eef6ff" stroke="#0969da"',
  wait: 'fill="#eef6ff" stroke="#0969da"',
  start: 'fill="#24292f" stroke="#24292f"',
  complete: 'fill="#dafbe1" stroke="#1a7f37"',
  fault: 'fill="#ffebe9" stroke="#cf222e"',
  compensate: 'fill="#fff1e5" stroke="#bc4c00"',
  cancel: 'fill="#eaeef2" stroke="#57606a"',
};

/**
 * The SVG outline of a placed node, shaped by kind like the Mermaid diagram: hexagon
 * check, parallelogram record, diamond route, stadium approval, subroutine (double-sided)
 * handoff, ellipse wait, dot start, double-ringed endings.
 */
export function nodeShape(placed: PlacedNode): string {
  const { x, y, width: w, height: h } = placed;
  const left = x - w / 2;
  const top = y - h / 2;
  const right = x + w / 2;
  const bottom = y + h / 2;
  const paint = PAINT[placed.node.shape];
  const rect = (radius: number): string =>
    `<rect x="${n(left)}" y="${n(top)}" width="${n(w)}" height="${n(h)}" rx="${n(radius)}" ${paint}/>`;
  switch (placed.node.shape) {
    case 'check': {
      const inset = Math.min(14, w / 4);
      return `<polygon points="${points([
        [left + inset, top],
        [right - inset, top],
        [right, y],
        [right - inset, bottom],
        [left + inset, bottom],
        [left, y],
      ])}" ${paint}/>`;
    }
    case 'record': {
      const slant = Math.min(14, w / 4);
      return `<polygon points="${points([
        [left + slant, top],
        [right, top],
        [right - slant, bottom],
        [left, bottom],
      ])}" ${paint}/>`;
    }
    case 'route':
      return `<polygon points="${points([
        [x, top],
        [right, y],
        [x, bottom],
        [left, y],
      ])}" ${paint}/>`;
    case 'approval':
      return rect(h / 2);
    case 'handoff':
      return `${rect(0)}<path d="M${n(left + 8)},${n(top)} V${n(bottom)} M${n(right - 8)},${n(top)} V${n(bottom)}" fill="none" stroke="#0969da"/>`;
    case 'wait':
      return `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(w / 2)}" ry="${n(h / 2)}" ${paint}/>`;
    case 'start':
      return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(Math.min(w, h) / 4)}" ${paint}/>`;
    case 'complete':
    case 'fault':
    case 'compensate':
    case 'cancel':
      return `${rect(h / 2)}<rect x="${n(left + 4)}" y="${n(top + 4)}" width="${n(w - 8)}" height="${n(h - 8)}" rx="${n(h / 2 - 4)}" fill="none" ${paint.replace(/fill="[^"]*" /, '')}/>`;
  }
}
