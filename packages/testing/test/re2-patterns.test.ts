import { describe, expect, it } from 'vitest';
import { compile, compileInputSchema } from '@programrun/dsl';
import {
  CheckError,
  fc,
  inputsArbitrary,
  invalidInputsArbitrary,
  valueArbitrary,
} from '../src/index.js';
import { patternArbitrary, patternMatcher } from '../src/pattern-arbitrary.js';
import { translateRe2Pattern } from '../src/re2-translate.js';

/** Patterns using what RE2 has and ECMAScript spells differently, or not at all. */
const PATTERNS = [
  '(?i)^inv-[a-f0-9]{4}$',
  '(?i)^k+$',
  '(?i)^[^k]+$',
  '(?i:ab)c',
  'a(?i)b|c',
  '^(?i)straße$',
  '^\\x{41}\\x42\\101-\\x{E9}\\x{1F600}$',
  '^\\pL+$',
  '^\\PL{2}$',
  '^\\p{Greek}+$',
  '^\\p{^Greek}\\pN$',
  '^[\\pL\\d_-]{1,8}$',
  '(?i)^\\p{Lu}+$',
  '^(?P<kind>[a-z]+):(?P<id>\\d+)$',
  '^(?<kind>[a-z]+)$',
  '^[[:alpha:]][[:^digit:]][[:xdigit:]]+$',
  '^\\s\\S\\w\\W\\d\\D$',
  '^.+$',
  '(?s)^.+$',
  '(?m)^ab$',
  '\\Aab\\z',
  '^\\Qa.b*\\E+$',
  '^a{,3}b{2}$',
  '^[]a-]+$',
  '(?U)^a+?b$',
  '\\bfoo\\b',
  'x\\By',
  '^(?:a|b|)+$',
];

/** Characters where RE2 and a careless translation part ways. */
const TRICKY = [
  ...'aAbBkKsSxyz019_-.:+*{},/ \t\n\r\v\f',
  '\u212A', // KELVIN SIGN folds with k
  '\u017F', // LATIN SMALL LETTER LONG S folds with s
  '\u00DF', // ß
  '\u1E9E', // ẞ folds with ß
  '\u0131', // dotless ı folds with nothing
  '\u00E9',
  '\u00C9',
  '\u03B1',
  '\u0391',
  '\u03C3',
  '\u03C2',
  '\u03A3',
  '\u00A0',
  '\u2028',
  '\u0660', // ARABIC-INDIC DIGIT ZERO: \pN, not \d
  '\u{1F600}',
];

const tricky = fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 6 });

describe('RE2 patterns in ECMAScript', () => {
  it.each([
    ['(?i)abc', '[Aa][Bb][Cc]'],
    ['(?i)k', '[Kk\\u{212A}]'],
    ['^\\x{E9}\\x{41}$', '^\\u{E9}A$'],
    ['\\pL+', '\\p{L}+'],
    ['\\PN', '\\P{N}'],
    ['\\p{Greek}', '\\p{Script=Greek}'],
    ['(?P<name>x)', '(?<name>x)'],
    ['.', '[^\\u{A}]'],
    ['(?s).', '[\\s\\S]'],
    ['\\s', '[\\u{9}\\u{A}\\u{C}\\u{D} ]'],
    ['(?m)^a$', '(?<![^\\n])a(?![^\\n])'],
    ['a{,3}', 'a\\{,3\\}'],
  ])('translates %s into /%s/u', (pattern, source) => {
    const { regexp } = translateRe2Pattern(pattern);
    expect(regexp.source).toBe(source);
    expect(regexp.flags).toBe('u');
  });

  it.each(PATTERNS)('%s matches exactly what RE2 matches', (pattern) => {
    const { regexp } = translateRe2Pattern(pattern);
    const matches = patternMatcher(pattern);
    fc.assert(
      fc.property(fc.oneof(tricky, patternArbitrary(pattern)), (text) => {
        expect(regexp.test(text), JSON.stringify(text)).toBe(matches(text));
      }),
      { numRuns: 300 },
    );
  });

  it.each(PATTERNS.filter((pattern) => !pattern.includes('\\b') && !pattern.includes('\\B')))(
    '%s: fast-check generates only matching strings from the translation',
    (pattern) => {
      const matches = patternMatcher(pattern);
      const samples = fc.sample(fc.stringMatching(translateRe2Pattern(pattern).generator), 200);
      expect(samples.filter((text) => !matches(text))).toEqual([]);
    },
  );

  it('keeps to matching strings while shrinking', () => {
    const pattern = '(?i)^[a-z]{2,}-\\pL$';
    const matches = patternMatcher(pattern);
    const result = fc.check(
      fc.property(patternArbitrary(pattern), (text) => [...text].length < 5),
      { seed: 7 },
    );
    expect(result.failed).toBe(true);
    const [counterexample] = result.counterexample!;
    expect(matches(counterexample)).toBe(true);
    expect([...counterexample]).toHaveLength(5);
  });

  it('refuses a pattern RE2 refuses, naming it and why', () => {
    const attempt = () => patternArbitrary('^(?=a)b');
    expect(attempt).toThrow(CheckError);
    expect(attempt).toThrow('The input pattern "^(?=a)b" uses lookahead');
    try {
      attempt();
    } catch (error) {
      expect((error as CheckError).code).toBe('unsupported_pattern');
    }
  });

  it('says so when no generated string matches', () => {
    expect(() => patternArbitrary('^[^\\x00-\\x{10FFFF}]$')).toThrow(
      /Cannot generate strings for the input pattern "\^\[\^\\\\x00-\\\\x\{10FFFF\}\]\$"/,
    );
    const unmatchable = patternArbitrary('a\\bb');
    expect(() => fc.sample(unmatchable, 1)).toThrow(
      /None of 1000 strings generated for the input pattern "a\\\\bb" matches it/,
    );
  });
});

const scenario = compile(
  `scenario: re2-inputs
version: v1
title: RE2 inputs
summary: Input patterns in the RE2 dialect.
family: bank_payout
asset_track: public_demo
inputs:
  type: object
  additionalProperties: false
  required: [invoice, reference, payee, greek, tag]
  properties:
    invoice: { type: string, pattern: '(?i)^inv-[0-9a-f]{4,8}$' }
    reference: { type: string, pattern: '^\\x{41}\\x{42}-\\x{E9}[0-9]{3}$' }
    payee: { type: string, pattern: '^\\pL+(?: \\pL+)?$' }
    greek: { type: string, pattern: '^\\p{Greek}{2,6}$' }
    tag: { type: string, pattern: '^(?P<kind>[a-z]+):(?P<id>\\d{1,4})$' }
    note: { type: string, pattern: '(?is)^note:.+' }
example_inputs: { invoice: INV-00ab, reference: AB-é123, payee: Zoë Ng, greek: αβγ, tag: 'po:7' }
parties:
  ops: { name: Operations, role: operations, kind: operator }
stages:
  - id: only
    title: Only
    steps:
      - { id: approve, kind: approval, title: Approve, approvers: [ops], expires: PT1H }
`,
);
const fields = (scenario.definition.inputs as { properties: Record<string, { pattern: string }> })
  .properties;

describe('inputs whose patterns are RE2', () => {
  it.each(Object.entries(fields))(
    'every generated %s passes the input validator',
    (_name, schema) => {
      const validator = compileInputSchema({ type: 'object', properties: { value: schema } });
      fc.assert(
        fc.property(valueArbitrary(schema), (value) => {
          expect(validator.validate({ value })).toEqual([]);
        }),
        { numRuns: 200 },
      );
    },
  );

  it('generates valid inputs, not only the example', () => {
    const samples = fc.sample(inputsArbitrary(scenario), { numRuns: 100, seed: 5 });
    for (const inputs of samples) expect(scenario.inputs.validate(inputs)).toEqual([]);
    const example = JSON.stringify(scenario.definition.example_inputs);
    expect(samples.filter((inputs) => JSON.stringify(inputs) !== example).length).toBeGreaterThan(
      50,
    );
  });

  it('never generates a near miss the validator accepts', () => {
    fc.assert(
      fc.property(invalidInputsArbitrary(scenario), ({ inputs, pointer, breaks }) => {
        const issues = scenario.inputs.validate(inputs);
        expect(
          issues.map((issue) => issue.pointer),
          `${breaks} at ${pointer}`,
        ).toContain(pointer);
      }),
      { numRuns: 300 },
    );
  });

  it('breaks every pattern', () => {
    const broken = fc
      .sample(invalidInputsArbitrary(scenario), { numRuns: 2000, seed: 1 })
      .map(({ pointer, breaks }) => `${pointer} ${breaks}`);
    for (const [name, { pattern }] of Object.entries(fields))
      expect(broken).toContain(`/${name} string not matching ${pattern}`);
  });
});
