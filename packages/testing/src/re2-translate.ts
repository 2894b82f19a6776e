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
import { PatternTranslationError } from './re2/ast.js';
import type { Mode } from './re2/ecma-syntax.js';
import { Re2Parser } from './re2/parser.js';
import { source } from './re2/source.js';

export { PatternTranslationError };

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
