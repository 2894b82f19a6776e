/**
 * RE2's named classes: the Perl classes (`\d`, `\s`, `\w`) and POSIX classes
 * (`[:alpha:]`) as their ASCII code point ranges, and Unicode property names (`\pL`,
 * `\p{Greek}`) as ECMAScript spells them.
 */
import { MAX_CODE_POINT, PatternTranslationError, type Range } from './ast.js';

const DIGITS: readonly Range[] = [[0x30, 0x39]];
const SPACES: readonly Range[] = [
  [0x09, 0x0a],
  [0x0c, 0x0d],
  [0x20, 0x20],
];
const WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
export const PERL_CLASSES: Readonly<Record<string, readonly Range[]>> = {
  d: DIGITS,
  s: SPACES,
  w: WORD,
};
export const POSIX_CLASSES: Readonly<Record<string, readonly Range[]>> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: DIGITS,
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};
export const NEWLINE: readonly Range[] = [[0x0a, 0x0a]];
export const EVERYTHING: readonly Range[] = [[0, MAX_CODE_POINT]];

/** `record[key]` when `key` is its own, not `Object.prototype`'s (`constructor`). */
export const own = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** RE2's property names that ECMAScript spells differently; the rest are tried as is. */
const PROPERTY_SPELLINGS: Readonly<Record<string, string>> = {
  Any: 'Any',
  Ascii: 'ASCII',
  Assigned: 'Assigned',
  Lc: 'LC',
};

const isEcmaProperty = (property: string): boolean => {
  try {
    new RegExp(`\\p{${property}}`, 'u');
    return true;
  } catch {
    return false;
  }
};

/**
 * The ECMAScript name of RE2's `\p{name}`: a general category or binary property (`L`,
 * `White_Space`), else a script (`Script=Greek`), the order RE2 looks them up in.
 */
export function ecmaProperty(name: string): string {
  const spelled = own(PROPERTY_SPELLINGS, name);
  if (spelled !== undefined) return spelled;
  if (/^[A-Za-z0-9_]+$/.test(name)) {
    for (const property of [name, `Script=${name}`]) if (isEcmaProperty(property)) return property;
  }
  throw new PatternTranslationError(
    `\\p{${name}} has no ECMAScript equivalent in this JavaScript engine`,
  );
}
