/**
 * ECMAScript regular expression syntax for the translation: code points, ranges and
 * quantifiers as a `u`-flag regular expression spells them.
 */
import type { Range } from './ast.js';

/** What a translation is for: `RegExp#test` (`match`), or fast-check's `stringMatching`. */
export type Mode = 'match' | 'generate';

const SYNTAX = new Set('^$\\.*+?()[]{}|/-');

/**
 * One code point in a `u`-flag regular expression. fast-check reads `\u{…}` with at most
 * five hex digits, so plane 16 is written as itself.
 */
export function escapeCodePoint(codePoint: number, inClass: boolean): string {
  if (codePoint >= 0x20 && codePoint <= 0x7e) {
    const character = String.fromCharCode(codePoint);
    if (SYNTAX.has(character) && (character !== '-' || inClass)) return `\\${character}`;
    return character;
  }
  if (codePoint <= 0xfffff) return `\\u{${codePoint.toString(16).toUpperCase()}}`;
  return String.fromCodePoint(codePoint);
}

export const rangesSource = (ranges: readonly Range[]): string =>
  ranges
    .map(([low, high]) =>
      low === high
        ? escapeCodePoint(low, true)
        : `${escapeCodePoint(low, true)}${high > low + 1 ? '-' : ''}${escapeCodePoint(high, true)}`,
    )
    .join('');

export const quantifier = (min: number, max: number | undefined): string => {
  if (max === undefined) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
};
