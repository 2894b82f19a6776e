/**
 * The structural half of the RE2 parser: alternations, concatenations, repetitions, groups
 * with their flags, anchors and literals, over the escapes and classes {@link Re2Scanner}
 * reads.
 */
import { classOf, literal, type Assertion, type Flags, type Node } from './ast.js';
import { EVERYTHING, NEWLINE } from './class-tables.js';
import { Re2Scanner } from './scanner.js';

/** Parses an RE2 pattern as re2js does with its default (Perl) flags. */
export class Re2Parser extends Re2Scanner {
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
}
