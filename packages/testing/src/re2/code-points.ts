/**
 * Code point sets as sorted ranges: normalizing, complementing, the code points of a
 * Unicode property, and RE2's `(?i)` case variants (simple case folding orbits).
 */
import { MAX_CODE_POINT, type Range } from './ast.js';
import { escapeCodePoint } from './ecma-syntax.js';

/** Sorted, disjoint, non-adjacent ranges. */
export function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((left, right) => left[0] - right[0]);
  const merged: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = merged.at(-1);
    if (last && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else merged.push([low, high]);
  }
  return merged;
}

/** The code points `ranges` (normalized) leave out. */
export function complement(ranges: readonly Range[]): Range[] {
  const result: Range[] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

const SURROGATES: Range = [0xd800, 0xdfff];
export const withoutSurrogates = (ranges: readonly Range[]): Range[] =>
  ranges.flatMap(([low, high]): Range[] =>
    high < SURROGATES[0] || low > SURROGATES[1]
      ? [[low, high]]
      : [
          ...(low < SURROGATES[0] ? [[low, SURROGATES[0] - 1] as const] : []),
          ...(high > SURROGATES[1] ? [[SURROGATES[1] + 1, high] as const] : []),
        ],
  );

const propertyRanges = new Map<string, Range[]>();

/** The code points of an ECMAScript Unicode property, by testing each one (~30 ms). */
export function rangesOfProperty(property: string): Range[] {
  const cached = propertyRanges.get(property);
  if (cached) return cached;
  const regexp = new RegExp(`^\\p{${property}}$`, 'u');
  const ranges: Range[] = [];
  let start = -1;
  for (let codePoint = 0; codePoint <= MAX_CODE_POINT + 1; codePoint += 1) {
    const inside = codePoint <= MAX_CODE_POINT && regexp.test(String.fromCodePoint(codePoint));
    if (inside && start < 0) start = codePoint;
    else if (!inside && start >= 0) {
      ranges.push([start, codePoint - 1]);
      start = -1;
    }
  }
  propertyRanges.set(property, ranges);
  return ranges;
}

interface CaseOrbits {
  /** Every code point whose case orbit has another member, sorted. */
  readonly cased: readonly number[];
  /** The other members of each such code point's orbit. */
  readonly orbit: ReadonlyMap<number, readonly number[]>;
}

let caseOrbits: CaseOrbits | undefined;

/**
 * Simple case folding orbits (`k`, `K`, U+212A KELVIN SIGN), as RE2's `(?i)` and
 * ECMAScript's `iu` both use them: candidates grouped by their lower-cased upper case,
 * kept when an `iu` regular expression says they fold together. Only the planes below
 * U+20000 have cased letters. The rare characters that fold together with no case mapping
 * between them (U+0390 and U+1FD3) are not found: their translation matches one of them.
 */
function orbits(): CaseOrbits {
  if (caseOrbits) return caseOrbits;
  const single = (text: string) =>
    text.length > 0 && String.fromCodePoint(text.codePointAt(0)!) === text
      ? text.codePointAt(0)
      : undefined;
  const groups = new Map<number, number[]>();
  for (let codePoint = 0; codePoint < 0x20000; codePoint += 1) {
    if (codePoint >= SURROGATES[0] && codePoint <= SURROGATES[1]) continue;
    const character = String.fromCodePoint(codePoint);
    const upper = character.toUpperCase();
    const lower = character.toLowerCase();
    if (upper === character && lower === character) continue;
    const key = single(upper.toLowerCase()) ?? single(lower) ?? codePoint;
    const group = groups.get(key);
    if (group) group.push(codePoint);
    else groups.set(key, [codePoint]);
  }
  const orbit = new Map<number, number[]>();
  for (const group of groups.values()) {
    for (const codePoint of group) {
      const folds = new RegExp(`^${escapeCodePoint(codePoint, false)}$`, 'iu');
      const others = group.filter(
        (other) => other !== codePoint && folds.test(String.fromCodePoint(other)),
      );
      if (others.length > 0) orbit.set(codePoint, others);
    }
  }
  caseOrbits = { cased: [...orbit.keys()].sort((left, right) => left - right), orbit };
  return caseOrbits;
}

/**
 * `ranges` (normalized) with the case variants of their code points: the whole orbit
 * (`full`, what RE2 matches), or only the upper and lower case (`simple`, what reads
 * naturally in generated strings: `[a-z]` gives `[A-Za-z]`, not also U+017F and U+212A).
 */
export function foldRanges(ranges: readonly Range[], variants: 'full' | 'simple'): Range[] {
  const { cased, orbit } = orbits();
  const added: Range[] = [...ranges];
  let index = 0;
  for (const [low, high] of ranges) {
    while (index < cased.length && cased[index]! < low) index += 1;
    for (; index < cased.length && cased[index]! <= high; index += 1) {
      const codePoint = cased[index]!;
      const character = String.fromCodePoint(codePoint);
      for (const other of orbit.get(codePoint) ?? []) {
        const otherCharacter = String.fromCodePoint(other);
        if (
          variants === 'full' ||
          otherCharacter === character.toUpperCase() ||
          otherCharacter === character.toLowerCase()
        )
          added.push([other, other]);
      }
    }
  }
  return normalize(added);
}
