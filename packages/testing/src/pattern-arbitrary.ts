import fc from 'fast-check';
import { compileInputSchema, InputSchemaError, type InputValidator } from '@programrun/dsl';
import { CheckError } from './check-error.js';
import { PatternTranslationError, translateRe2Pattern } from './re2-translate.js';

const matchers = new Map<string, (text: string) => boolean>();

/**
 * Whether a string matches an input-schema `pattern`, decided by the scenario input
 * validator itself (RE2, as `@programrun/dsl` compiles it). Throws `unsupported_pattern`
 * for a pattern RE2 refuses, saying why.
 */
export function patternMatcher(pattern: string): (text: string) => boolean {
  const cached = matchers.get(pattern);
  if (cached) return cached;
  let validator: InputValidator;
  try {
    validator = compileInputSchema({
      type: 'object',
      properties: { value: { type: 'string', pattern } },
    });
  } catch (error) {
    if (!(error instanceof InputSchemaError)) throw error;
    // "/properties/value/pattern "(?=a)" uses lookahead…": the pattern and why.
    const why = error.message.startsWith(error.pointer)
      ? error.message.slice(error.pointer.length).trim()
      : error.message;
    throw new CheckError('unsupported_pattern', `The input pattern ${why}`, { cause: error });
  }
  const matches = (text: string) => validator.validate({ value: text }).length === 0;
  matchers.set(pattern, matches);
  return matches;
}

/** Consecutive candidates RE2 may refuse before the pattern is deemed unmatchable. */
const MAX_ATTEMPTS = 1000;

/**
 * Candidates from fast-check's `stringMatching` kept when RE2 matches them: only a
 * refused candidate is drawn again, and shrinking keeps to matching strings.
 */
class MatchingArbitrary extends fc.Arbitrary<string> {
  private readonly candidates: fc.Arbitrary<string>;
  private readonly matches: (text: string) => boolean;
  private readonly pattern: string;

  constructor(
    candidates: fc.Arbitrary<string>,
    matches: (text: string) => boolean,
    pattern: string,
  ) {
    super();
    this.candidates = candidates;
    this.matches = matches;
    this.pattern = pattern;
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const candidate = this.candidates.generate(random, biasFactor);
      if (this.matches(candidate.value)) return candidate;
    }
    throw new CheckError(
      'unsupported_pattern',
      `None of ${MAX_ATTEMPTS} strings generated for the input pattern ${JSON.stringify(this.pattern)} matches it: it matches no string, or too few for generating them.`,
    );
  }

  canShrinkWithoutContext(value: unknown): value is string {
    return (
      typeof value === 'string' &&
      this.candidates.canShrinkWithoutContext(value) &&
      this.matches(value)
    );
  }

  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    return this.candidates.shrink(value, context).filter((shrunk) => this.matches(shrunk.value));
  }
}

// fast-check takes ~150 ms to read a translation that spells out `\pL`: built once.
const arbitraries = new Map<string, fc.Arbitrary<string>>();

/**
 * Strings matching an input-schema `pattern` of the RE2 dialect: the pattern translated
 * into an ECMAScript regular expression for fast-check (`(?i)` spelled out as case
 * variants, `\x{41}` as `\u{41}`, `\pL` as `\p{L}`, `(?P<name>` as `(?<name>`…), and each
 * string kept only when RE2 matches it, so every value passes the input validator. Throws
 * `unsupported_pattern`, naming the pattern, when RE2 refuses it or it has no
 * translation; the arbitrary throws it when no generated string matches.
 */
export function patternArbitrary(pattern: string): fc.Arbitrary<string> {
  const cached = arbitraries.get(pattern);
  if (cached) return cached;
  const matches = patternMatcher(pattern);
  let candidates: fc.Arbitrary<string>;
  try {
    const { generator } = translateRe2Pattern(pattern);
    // An empty translation (`(?i)`, `\b`) matches every string.
    candidates = generator.source === '(?:)' ? fc.string() : fc.stringMatching(generator);
  } catch (error) {
    const why =
      error instanceof PatternTranslationError
        ? error.message
        : `fast-check cannot generate from its translation (${error instanceof Error ? error.message : String(error)})`;
    throw new CheckError(
      'unsupported_pattern',
      `Cannot generate strings for the input pattern ${JSON.stringify(pattern)}: ${why}.`,
      { cause: error },
    );
  }
  const arbitrary = new MatchingArbitrary(candidates, matches, pattern);
  arbitraries.set(pattern, arbitrary);
  return arbitrary;
}
