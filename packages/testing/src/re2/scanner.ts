/**
 * The reading half of the RE2 parser: the position in the pattern, escapes (`\n`,
 * `\x{41}`, `\101`) and character classes (`[a-z]`, `[[:alpha:]]`, `\pL`, `\d`), as re2js
 * reads them with its default (Perl) flags.
 */
import {
  classOf,
  MAX_CODE_POINT,
  PatternTranslationError,
  type ClassItem,
  type Flags,
  type Node,
} from './ast.js';
import { ecmaProperty, own, PERL_CLASSES, POSIX_CLASSES } from './class-tables.js';

const isOctal = (character: string | undefined) =>
  character !== undefined && character >= '0' && character <= '7';
const isAlphanumeric = (character: string) => /^[A-Za-z0-9]$/.test(character);

/** A cursor over an RE2 pattern that reads its escapes and character classes. */
export class Re2Scanner {
  protected position = 0;
  protected readonly pattern: string;

  constructor(pattern: string) {
    this.pattern = pattern;
  }

  protected fail(why: string): never {
    throw new PatternTranslationError(`${why} at offset ${this.position}`);
  }

  protected peek(offset = 0): string | undefined {
    return this.pattern[this.position + offset];
  }

  protected lookingAt(text: string): boolean {
    return this.pattern.startsWith(text, this.position);
  }

  protected nextCodePoint(): number {
    const codePoint = this.pattern.codePointAt(this.position);
    if (codePoint === undefined) this.fail('unexpected end');
    this.position += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }

  /** `\pL`, `\p{Greek}`, `\PL`, `\p{^Greek}`, `\d`, `\S`…: a class item, or undefined. */
  protected classEscape(flags: Flags): ClassItem | undefined {
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
  protected escape(): number {
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

  protected characterClass(flags: Flags): Node {
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
