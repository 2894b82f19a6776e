/**
 * RE2 patterns (the dialect of input-schema `pattern`s) translated into ECMAScript regular
 * expressions with the `u` flag, for fast-check's `stringMatching`, which knows only
 * ECMAScript syntax and not even every flag of it (no `i`).
 *
 * The pattern is parsed as RE2 parses it (re2js, Perl flags) and written out again with
 * every RE2 flag compiled into the source: `(?i)` becomes explicit case variants (`k` is
 * `[Kk\u{212A}]`, RE2's simple case folding), `(?s)` and `(?m)` the classes and
 * assertions they imply, `\x{41}` is `\u{41}`, `\pL` is `\p{L}`, `\p{Greek}` is
 * `\p{Script=Greek}`, `(?P<name>…)` is `(?<name>…)`, `\Q…\E` escaped literals, `\s` and
 * the POSIX classes their ASCII sets.
 */

/** An inclusive range of code points. */
type Range = readonly [number, number];

const MAX_CODE_POINT = 0x10ffff;

/** Why an RE2 pattern has no ECMAScript translation. */
export class PatternTranslationError extends Error {}

type Assertion =
  'begin-text' | 'end-text' | 'begin-line' | 'end-line' | 'word-boundary' | 'not-word-boundary';

/**
 * Part of a character class: code point ranges (a literal, a range, a Perl or POSIX class),
 * or a Unicode property by its ECMAScript name (`L`, `Script=Greek`). `fold` is RE2's
 * `(?i)` when the item was read, `negated` its own negation (`\D`, `\PL`, `[:^alpha:]`).
 */
type ClassItem =
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

type Node =
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

/** RE2's flags, as `(?imsU)` set them for the rest of the current group. */
interface Flags {
  fold: boolean;
  multiLine: boolean;
  dotAll: boolean;
  ungreedy: boolean;
}

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
const PERL_CLASSES: Readonly<Record<string, readonly Range[]>> = {
  d: DIGITS,
  s: SPACES,
  w: WORD,
};
const POSIX_CLASSES: Readonly<Record<string, readonly Range[]>> = {
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
const NEWLINE: readonly Range[] = [[0x0a, 0x0a]];
const EVERYTHING: readonly Range[] = [[0, MAX_CODE_POINT]];

const isOctal = (character: string | undefined) =>
  character !== undefined && character >= '0' && character <= '7';
const isAlphanumeric = (character: string) => /^[A-Za-z0-9]$/.test(character);
/** `record[key]` when `key` is its own, not `Object.prototype`'s (`constructor`). */
const own = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
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
function ecmaProperty(name: string): string {
  const spelled = own(PROPERTY_SPELLINGS, name);
  if (spelled !== undefined) return spelled;
  if (/^[A-Za-z0-9_]+$/.test(name)) {
    for (const property of [name, `Script=${name}`]) if (isEcmaProperty(property)) return property;
  }
  throw new PatternTranslationError(
    `\\p{${name}} has no ECMAScript equivalent in this JavaScript engine`,
  );
}

/** Parses an RE2 pattern as re2js does with its default (Perl) flags. */
class Re2Parser {
  private position = 0;
  private readonly pattern: string;

  constructor(pattern: string) {
    this.pattern = pattern;
  }

  parse(): Node {
    const node = this.alternation({
      fold: false,
      multiLine: false,
      dotAll: false,
      ungreedy: false,
    });
    if (this.position < this.pattern.length) this.fail('unexpected )');
    return node;
  }

  private fail(why: string): never {
    throw new PatternTranslationError(`${why} at offset ${this.position}`);
  }

  private peek(offset = 0): string | undefined {
    return this.pattern[this.position + offset];
  }

  private lookingAt(text: string): boolean {
    return this.pattern.startsWith(text, this.position);
  }

  private nextCodePoint(): number {
    const codePoint = this.pattern.codePointAt(this.position);
    if (codePoint === undefined) this.fail('unexpected end');
    this.position += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }

  /** Branches up to the `)` closing the group (or the end); `flags` belong to the group. */
  private alternation(flags: Flags): Node {
    const branches = [this.concatenation(flags)];
    while (this.peek() === '|') {
      this.position += 1;
      branches.push(this.concatenation(flags));
    }
    return branches.length === 1 ? branches[0]! : { kind: 'alternate', items: branches };
  }

  private concatenation(flags: Flags): Node {
    const items: Node[] = [];
    for (let next = this.peek(); next !== undefined && next !== '|' && next !== ')';) {
      const repeat = this.repetition(flags);
      if (repeat) {
        const body = items.pop();
        if (body === undefined) this.fail('missing argument to repetition operator');
        items.push({ kind: 'repeat', ...repeat, body });
      } else {
        items.push(...this.atom(flags));
      }
      next = this.peek();
    }
    if (items.length === 0) return { kind: 'empty' };
    return items.length === 1 ? items[0]! : { kind: 'concat', items };
  }

  /** A repetition operator at the position (with its `?`), or undefined. */
  private repetition(
    flags: Flags,
  ): { min: number; max: number | undefined; greedy: boolean } | undefined {
    const operator = this.peek();
    let bounds: { min: number; max: number | undefined } | undefined;
    if (operator === '*') bounds = { min: 0, max: undefined };
    else if (operator === '+') bounds = { min: 1, max: undefined };
    else if (operator === '?') bounds = { min: 0, max: 1 };
    if (bounds) this.position += 1;
    else if (operator === '{') {
      // `{` that is not a valid repeat (`a{`, `a{,3}`, `a{01}`) is a literal, as in RE2.
      const match = /^\{(0|[1-9][0-9]*)(?:(,)(0|[1-9][0-9]*)?)?\}/.exec(
        this.pattern.slice(this.position),
      );
      if (!match) return undefined;
      this.position += match[0].length;
      const min = Number(match[1]);
      const max =
        match[2] === undefined ? min : match[3] === undefined ? undefined : Number(match[3]);
      bounds = { min, max };
    } else return undefined;
    let greedy = !flags.ungreedy;
    if (this.peek() === '?') {
      this.position += 1;
      greedy = !greedy;
    }
    return { ...bounds, greedy };
  }

  /** The nodes one atom stands for: none for `(?i)`, several for `\Q…\E`. */
  private atom(flags: Flags): Node[] {
    const character = this.peek()!;
    switch (character) {
      case '(':
        return this.group(flags);
      case '[':
        return [this.characterClass(flags)];
      case '.':
        this.position += 1;
        return [
          flags.dotAll
            ? classOf([{ kind: 'ranges', ranges: EVERYTHING, negated: false, fold: false }])
            : classOf([{ kind: 'ranges', ranges: NEWLINE, negated: false, fold: false }], true),
        ];
      case '^':
        this.position += 1;
        return [{ kind: 'assertion', assertion: flags.multiLine ? 'begin-line' : 'begin-text' }];
      case '$':
        this.position += 1;
        return [{ kind: 'assertion', assertion: flags.multiLine ? 'end-line' : 'end-text' }];
      case '\\':
        return this.escapeAtom(flags);
      default:
        return [literal(this.nextCodePoint(), flags.fold)];
    }
  }

  private group(flags: Flags): Node[] {
    const named = /^\(\?P?<([^>]*)>/.exec(this.pattern.slice(this.position));
    if (named) {
      this.position += named[0].length;
      return [this.groupBody({ ...flags }, true, named[1])];
    }
    if (!this.lookingAt('(?')) {
      this.position += 1;
      return [this.groupBody({ ...flags }, true, undefined)];
    }
    this.position += 2;
    const scoped = { ...flags };
    let negate = false;
    let sawFlag = false;
    for (;;) {
      const character = this.peek();
      this.position += 1;
      switch (character) {
        case 'i':
          scoped.fold = !negate;
          sawFlag = true;
          break;
        case 'm':
          scoped.multiLine = !negate;
          sawFlag = true;
          break;
        case 's':
          scoped.dotAll = !negate;
          sawFlag = true;
          break;
        case 'U':
          scoped.ungreedy = !negate;
          sawFlag = true;
          break;
        case '-':
          if (negate) this.fail('invalid or unsupported Perl syntax');
          negate = true;
          sawFlag = false;
          break;
        case ':':
        case ')':
          if (negate && !sawFlag) this.fail('invalid or unsupported Perl syntax');
          if (character === ':') return [this.groupBody(scoped, false, undefined)];
          // `(?i)` sets the flags for the rest of the enclosing group.
          Object.assign(flags, scoped);
          return [];
        default:
          this.position -= 1;
          this.fail('invalid or unsupported Perl syntax');
      }
    }
  }

  /** A group's branches and its `)`; `flags` are the group's own copy. */
  private groupBody(flags: Flags, capture: boolean, name: string | undefined): Node {
    const body = this.alternation(flags);
    if (this.peek() !== ')') this.fail('missing closing )');
    this.position += 1;
    return { kind: 'group', capture, name, body };
  }

  private escapeAtom(flags: Flags): Node[] {
    const next = this.peek(1);
    const assertions: Readonly<Record<string, Assertion>> = {
      A: 'begin-text',
      z: 'end-text',
      b: 'word-boundary',
      B: 'not-word-boundary',
    };
    const assertion = next === undefined ? undefined : assertions[next];
    if (assertion) {
      this.position += 2;
      return [{ kind: 'assertion', assertion }];
    }
    if (next === 'Q') {
      this.position += 2;
      const end = this.pattern.indexOf('\\E', this.position);
      const text = this.pattern.slice(this.position, end < 0 ? undefined : end);
      this.position = end < 0 ? this.pattern.length : end + 2;
      return [...text].map((character) => literal(character.codePointAt(0)!, flags.fold));
    }
    const item = this.classEscape(flags);
    if (item) return [classOf([item])];
    return [literal(this.escape(), flags.fold)];
  }

  /** `\pL`, `\p{Greek}`, `\PL`, `\p{^Greek}`, `\d`, `\S`…: a class item, or undefined. */
  private classEscape(flags: Flags): ClassItem | undefined {
    const letter = this.peek(1);
    if (letter === 'p' || letter === 'P') {
      this.position += 2;
      let name: string;
      if (this.peek() === '{') {
        const end = this.pattern.indexOf('}', this.position);
        if (end < 0) this.fail('invalid character class range');
        name = this.pattern.slice(this.position + 1, end);
        this.position = end + 1;
      } else {
        name = String.fromCodePoint(this.nextCodePoint());
      }
      let negated = letter === 'P';
      if (name.startsWith('^')) {
        negated = !negated;
        name = name.slice(1);
      }
      return { kind: 'property', property: ecmaProperty(name), negated, fold: flags.fold };
    }
    if (letter === undefined) return undefined;
    const perl = own(PERL_CLASSES, letter.toLowerCase());
    if (!perl) return undefined;
    this.position += 2;
    // `\D`, `\S`, `\W` are the complements of `\d`, `\s`, `\w`.
    return {
      kind: 'ranges',
      ranges: perl,
      negated: letter !== letter.toLowerCase(),
      fold: flags.fold,
    };
  }

  /** A single-character escape (`\n`, `\x{41}`, `\101`, `\.`), as re2js's parseEscape. */
  private escape(): number {
    this.position += 1;
    const character = this.peek();
    if (character === undefined) this.fail('trailing backslash at end of expression');
    this.position += 1;
    // `\0` and `\1`-`\7` followed by an octal digit; a lone `\1` would be a backreference.
    if (isOctal(character) && (character === '0' || isOctal(this.peek()))) {
      let value = Number(character);
      for (let digits = 1; digits < 3 && isOctal(this.peek()); digits += 1) {
        value = value * 8 + Number(this.peek());
        this.position += 1;
      }
      return value;
    }
    if (character === 'x') {
      const hex = /^(?:\{([0-9A-Fa-f]+)\}|([0-9A-Fa-f]{2}))/.exec(
        this.pattern.slice(this.position),
      );
      if (!hex) this.fail('invalid escape sequence');
      this.position += hex[0].length;
      const value = Number.parseInt(hex[1] ?? hex[2]!, 16);
      if (value > MAX_CODE_POINT) this.fail('invalid escape sequence');
      return value;
    }
    const controls: Readonly<Record<string, number>> = {
      a: 0x07,
      f: 0x0c,
      n: 0x0a,
      r: 0x0d,
      t: 0x09,
      v: 0x0b,
    };
    const control = own(controls, character);
    if (control !== undefined) return control;
    if (character.charCodeAt(0) < 0x80 && !isAlphanumeric(character))
      return character.charCodeAt(0);
    this.position -= 2;
    this.fail('invalid escape sequence');
  }

  private characterClass(flags: Flags): Node {
    this.position += 1;
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.position += 1;
    }
    const items: ClassItem[] = [];
    // A `]` right after `[` or `[^` is a literal.
    for (let first = true; first || this.peek() !== ']'; first = false) {
      if (this.peek() === undefined) this.fail('missing closing ]');
      if (this.lookingAt('[:')) {
        const end = this.pattern.indexOf(':]', this.position);
        if (end >= 0) {
          const name = this.pattern.slice(this.position + 2, end);
          const posix = own(POSIX_CLASSES, name.replace(/^\^/, ''));
          if (!posix) this.fail('invalid character class range');
          this.position = end + 2;
          items.push({
            kind: 'ranges',
            ranges: posix,
            negated: name.startsWith('^'),
            fold: flags.fold,
          });
          continue;
        }
      }
      if (this.peek() === '\\') {
        const item = this.classEscape(flags);
        if (item) {
          items.push(item);
          continue;
        }
      }
      const low = this.classCharacter();
      let high = low;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.position += 1;
        high = this.classCharacter();
        if (high < low) this.fail('invalid character class range');
      }
      items.push({ kind: 'ranges', ranges: [[low, high]], negated: false, fold: flags.fold });
    }
    this.position += 1;
    return classOf(items, negated);
  }

  private classCharacter(): number {
    return this.peek() === '\\' ? this.escape() : this.nextCodePoint();
  }
}

const classOf = (items: readonly ClassItem[], negated = false): Node => ({
  kind: 'class',
  negated,
  items,
});

const literal = (codePoint: number, fold: boolean): Node =>
  fold
    ? classOf([{ kind: 'ranges', ranges: [[codePoint, codePoint]], negated: false, fold: true }])
    : { kind: 'literal', codePoint };

// ---------------------------------------------------------------------------------------
// Code point sets

/** Sorted, disjoint, non-adjacent ranges. */
function normalize(ranges: readonly Range[]): Range[] {
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
function complement(ranges: readonly Range[]): Range[] {
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
const withoutSurrogates = (ranges: readonly Range[]): Range[] =>
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
function rangesOfProperty(property: string): Range[] {
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
function foldRanges(ranges: readonly Range[], variants: 'full' | 'simple'): Range[] {
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

type Mode = 'match' | 'generate';

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
  node: Extract<Node, { kind: 'class' }>,
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

// ---------------------------------------------------------------------------------------
// Writing ECMAScript

const SYNTAX = new Set('^$\\.*+?()[]{}|/-');

/**
 * One code point in a `u`-flag regular expression. fast-check reads `\u{…}` with at most
 * five hex digits, so plane 16 is written as itself.
 */
function escapeCodePoint(codePoint: number, inClass: boolean): string {
  if (codePoint >= 0x20 && codePoint <= 0x7e) {
    const character = String.fromCharCode(codePoint);
    if (SYNTAX.has(character) && (character !== '-' || inClass)) return `\\${character}`;
    return character;
  }
  if (codePoint <= 0xfffff) return `\\u{${codePoint.toString(16).toUpperCase()}}`;
  return String.fromCodePoint(codePoint);
}

const rangesSource = (ranges: readonly Range[]): string =>
  ranges
    .map(([low, high]) =>
      low === high
        ? escapeCodePoint(low, true)
        : `${escapeCodePoint(low, true)}${high > low + 1 ? '-' : ''}${escapeCodePoint(high, true)}`,
    )
    .join('');

const PRINTABLE_ASCII: Range = [0x20, 0x7e];
const reachesPrintableAscii = (ranges: readonly Range[]) =>
  ranges.some(([low, high]) => low <= PRINTABLE_ASCII[1] && high >= PRINTABLE_ASCII[0]);

function classSource(node: Extract<Node, { kind: 'class' }>, mode: Mode): string {
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

const ASSERTIONS: Readonly<Record<Mode, Readonly<Record<Assertion, string>>>> = {
  match: {
    'begin-text': '^',
    'end-text': '$',
    // RE2's `(?m)` lines end at `\n` only; ECMAScript's `m` would also end them at `\r`.
    'begin-line': '(?<![^\\n])',
    'end-line': '(?![^\\n])',
    'word-boundary': '\\b',
    'not-word-boundary': '\\B',
  },
  // fast-check generates no lookaround or word boundary: a line anchor generates as a text
  // anchor (fewer strings, all matching), a word boundary as nothing (strings then
  // filtered by RE2).
  generate: {
    'begin-text': '^',
    'end-text': '$',
    'begin-line': '^',
    'end-line': '$',
    'word-boundary': '',
    'not-word-boundary': '',
  },
};

const quantifier = (min: number, max: number | undefined): string => {
  if (max === undefined) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
};

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function source(node: Node, mode: Mode): string {
  switch (node.kind) {
    case 'empty':
      return '';
    case 'literal':
      return escapeCodePoint(node.codePoint, false);
    case 'class':
      return classSource(node, mode);
    case 'assertion':
      return ASSERTIONS[mode][node.assertion];
    case 'concat':
      return node.items.map((item) => source(item, mode)).join('');
    case 'alternate':
      return node.items.map((item) => source(item, mode)).join('|');
    case 'group': {
      const body = source(node.body, mode);
      // fast-check refuses an empty group; captures mean nothing to it.
      if (mode === 'generate') return body === '' ? '' : `(?:${body})`;
      if (!node.capture) return `(?:${body})`;
      return node.name !== undefined && IDENTIFIER.test(node.name)
        ? `(?<${node.name}>${body})`
        : `(${body})`;
    }
    case 'repeat': {
      const body = source(node.body, mode);
      if (mode === 'generate' && body === '') return '';
      const atom =
        node.body.kind === 'literal' || node.body.kind === 'class' || node.body.kind === 'group';
      const lazy = mode === 'match' && !node.greedy ? '?' : '';
      return `${atom ? body : `(?:${body})`}${quantifier(node.min, node.max)}${lazy}`;
    }
  }
}

/** An RE2 pattern as ECMAScript, for matching and for fast-check. */
export interface TranslatedPattern {
  /**
   * Matches exactly what RE2 matches (`test`), up to differences between the Unicode
   * versions of re2js and the JavaScript engine.
   */
  readonly regexp: RegExp;
  /**
   * For `fc.stringMatching`: the same, save for what fast-check cannot generate (no
   * lookaround: `(?m)` anchors become text anchors, `\b` and `\B` are left out) and with
   * `(?i)` giving only upper and lower case variants. Its strings are candidates, to be
   * filtered by RE2.
   */
  readonly generator: RegExp;
}

/**
 * Translates an RE2 pattern (one re2js accepts) into ECMAScript regular expressions with
 * the `u` flag. Throws {@link PatternTranslationError} when it cannot, naming why.
 */
export function translateRe2Pattern(pattern: string): TranslatedPattern {
  const tree = new Re2Parser(pattern).parse();
  const build = (mode: Mode): RegExp => {
    const text = source(tree, mode);
    try {
      return new RegExp(text, 'u');
    } catch (error) {
      throw new PatternTranslationError(
        `its translation /${text}/u is not valid ECMAScript: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  return {
    regexp: build('match'),
    generator: build('generate'),
  };
}
