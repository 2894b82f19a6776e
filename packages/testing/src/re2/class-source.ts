/**
 * Character classes written as ECMAScript: the code points a class matches (with its
 * `(?i)` variants and negations resolved), as a bracket expression, a property escape or a
 * single code point.
 */
import type { ClassItem, ClassNode, Range } from './ast.js';
import {
  complement,
  foldRanges,
  normalize,
  rangesOfProperty,
  withoutSurrogates,
} from './code-points.js';
import { escapeCodePoint, rangesSource, type Mode } from './ecma-syntax.js';

/** A property left to the regular expression (`\p{L}`), or spelled out as ranges. */
interface SymbolicProperty {
  readonly property: string;
  readonly negated: boolean;
}

/**
 * The code points of one class item: case variants added when it was read under `(?i)`
 * (the whole orbit before a negation, so that `(?i)[^k]` leaves U+212A out too).
 */
function itemRanges(item: ClassItem, variants: 'full' | 'simple'): Range[] {
  const base = item.kind === 'ranges' ? normalize(item.ranges) : rangesOfProperty(item.property);
  if (item.negated) return complement(item.fold ? foldRanges(base, 'full') : base);
  return item.fold ? foldRanges(base, variants) : base;
}

/**
 * What a class matches: ranges plus, when matching, the properties ECMAScript can say
 * itself. Generating spells every property out, so fast-check needs no Unicode tables of
 * its own.
 */
function resolveClass(
  node: ClassNode,
  mode: Mode,
): { ranges: Range[]; properties: SymbolicProperty[] } {
  if (node.negated)
    return {
      ranges: complement(normalize(node.items.flatMap((item) => itemRanges(item, 'full')))),
      properties: [],
    };
  const ranges: Range[] = [];
  const properties: SymbolicProperty[] = [];
  for (const item of node.items) {
    if (item.kind === 'property' && mode === 'match' && !item.fold)
      properties.push({ property: item.property, negated: item.negated });
    else ranges.push(...itemRanges(item, mode === 'match' ? 'full' : 'simple'));
  }
  return { ranges: normalize(ranges), properties };
}

const PRINTABLE_ASCII: Range = [0x20, 0x7e];
const reachesPrintableAscii = (ranges: readonly Range[]) =>
  ranges.some(([low, high]) => low <= PRINTABLE_ASCII[1] && high >= PRINTABLE_ASCII[0]);

export function classSource(node: ClassNode, mode: Mode): string {
  const resolved = resolveClass(node, mode);
  let ranges = resolved.ranges;
  if (resolved.properties.length > 0) {
    const properties = resolved.properties.map(
      ({ property, negated }) => `\\${negated ? 'P' : 'p'}{${property}}`,
    );
    if (ranges.length === 0 && properties.length === 1) return properties[0]!;
    return `[${rangesSource(ranges)}${properties.join('')}]`;
  }
  // A lone surrogate next to another would pair into a different character.
  if (mode === 'generate' && withoutSurrogates(ranges).length > 0)
    ranges = withoutSurrogates(ranges);
  if (ranges.length === 0) return '[]';
  const only = ranges[0]!;
  if (ranges.length === 1 && only[0] === only[1]) return escapeCodePoint(only[0], false);
  const left = complement(ranges);
  if (left.length === 0) return '[\\s\\S]';
  // fast-check draws a negated class from printable ASCII: `[^\n]` reads better than its
  // two ranges up to U+10FFFF, provided some printable ASCII character is in the class.
  if (left.length < ranges.length && (mode === 'match' || reachesPrintableAscii(ranges)))
    return `[^${rangesSource(left)}]`;
  return `[${rangesSource(ranges)}]`;
}
