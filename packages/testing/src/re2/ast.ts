/**
 * The syntax tree an RE2 pattern parses into, with RE2's flags compiled into its nodes:
 * `(?i)` is in each class item's `fold`, `(?m)` in the assertions, `(?s)` in the class a
 * `.` stands for, `(?U)` in each repetition's `greedy`.
 */

/** An inclusive range of code points. */
export type Range = readonly [number, number];

export const MAX_CODE_POINT = 0x10ffff;

/** Why an RE2 pattern has no ECMAScript translation. */
export class PatternTranslationError extends Error {}

export type Assertion =
  'begin-text' | 'end-text' | 'begin-line' | 'end-line' | 'word-boundary' | 'not-word-boundary';

/**
 * Part of a character class: code point ranges (a literal, a range, a Perl or POSIX class),
 * or a Unicode property by its ECMAScript name (`L`, `Script=Greek`). `fold` is RE2's
 * `(?i)` when the item was read, `negated` its own negation (`\D`, `\PL`, `[:^alpha:]`).
 */
export type ClassItem =
  | {
      readonly kind: 'ranges';
      readonly ranges: readonly Range[];
      readonly negated: boolean;
      readonly fold: boolean;
    }
  | {
      readonly kind: 'property';
      readonly property: string;
      readonly negated: boolean;
      readonly fold: boolean;
    };

export type Node =
  | { readonly kind: 'empty' }
  | { readonly kind: 'literal'; readonly codePoint: number }
  | { readonly kind: 'class'; readonly negated: boolean; readonly items: readonly ClassItem[] }
  | { readonly kind: 'assertion'; readonly assertion: Assertion }
  | { readonly kind: 'concat'; readonly items: readonly Node[] }
  | { readonly kind: 'alternate'; readonly items: readonly Node[] }
  | {
      readonly kind: 'group';
      readonly capture: boolean;
      readonly name: string | undefined;
      readonly body: Node;
    }
  | {
      readonly kind: 'repeat';
      readonly min: number;
      readonly max: number | undefined;
      readonly greedy: boolean;
      readonly body: Node;
    };

/** A character class node. */
export type ClassNode = Extract<Node, { kind: 'class' }>;

/** RE2's flags, as `(?imsU)` set them for the rest of the current group. */
export interface Flags {
  fold: boolean;
  multiLine: boolean;
  dotAll: boolean;
  ungreedy: boolean;
}

export const classOf = (items: readonly ClassItem[], negated = false): Node => ({
  kind: 'class',
  negated,
  items,
});

export const literal = (codePoint: number, fold: boolean): Node =>
  fold
    ? classOf([{ kind: 'ranges', ranges: [[codePoint, codePoint]], negated: false, fold: true }])
    : { kind: 'literal', codePoint };
