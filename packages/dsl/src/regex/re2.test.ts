import { describe, expect, it } from 'vitest';
import { compileRegex, regexRefusal, RegexSyntaxError } from './re2.js';

const elapsed = (work: () => unknown): { ms: number; value: unknown } => {
  const started = performance.now();
  const value = work();
  return { ms: performance.now() - started, value };
};

describe('regular expressions on RE2', () => {
  it.each([
    ['^(a+)+$', 'a'.repeat(31) + '!'],
    ['^(a|a)*$', 'a'.repeat(31) + '!'],
    ['^(a|aa)+$', 'a'.repeat(33) + '!'],
    [
      '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
      'a'.repeat(40) + '!',
    ],
  ])('answers the catastrophic %s on 31+ characters in milliseconds', (pattern, text) => {
    compileRegex(pattern); // compiling is not what is measured
    const { ms, value } = elapsed(() => compileRegex(pattern).test(text));
    expect(value).toBe(false);
    expect(ms).toBeLessThan(50);
  });

  it('stays linear on long input (100,000 characters)', () => {
    const { ms, value } = elapsed(() => compileRegex('^(a+)+$').test('a'.repeat(100_000) + '!'));
    expect(value).toBe(false);
    expect(ms).toBeLessThan(500);
  });

  it('matches like ECMAScript on the patterns scenarios use', () => {
    expect(compileRegex('^[0-9]{6,17}$').test('123456')).toBe(true);
    expect(compileRegex('^[0-9]{6,17}$').test('12345')).toBe(false);
    expect(
      compileRegex('^000201.{14,500}6304[0-9A-F]{4}$').test(`000201${'x'.repeat(20)}6304ABCD`),
    ).toBe(true);
    // Unanchored patterns search, as JSON Schema `pattern` and CEL `matches` do.
    expect(compileRegex('b+').test('abbbc')).toBe(true);
    // A code point is one character, like ECMAScript's `u` flag that Ajv sets.
    expect(compileRegex('^.$').test('😀')).toBe(true);
  });

  it.each([
    ['^(?=a)b', 1, 'uses lookahead `(?=…)`'],
    ['^x(?!a)', 2, 'uses negative lookahead `(?!…)`'],
    ['(?<=a)b', 0, 'uses lookbehind `(?<=…)`'],
    ['x(?<!a)b', 1, 'uses negative lookbehind `(?<!…)`'],
    ['(a)\\1', 3, 'uses backreference'],
    ['^\\u00e9$', 1, 'uses the ECMAScript escape `\\u`'],
    ['(abc', 0, 'is not a valid RE2 regular expression: missing closing )'],
  ])('refuses %s, pointing at offset %i', (pattern, offset, message) => {
    const refusal = regexRefusal(pattern);
    expect(refusal?.offset).toBe(offset);
    expect(refusal?.message).toContain(message);
    expect(() => compileRegex(pattern)).toThrow(RegexSyntaxError);
  });

  it('accepts what RE2 has', () => {
    for (const pattern of [
      '\\p{L}+',
      '(?i)abc',
      '(?P<name>x)',
      '(?<name>x)',
      '\\x{00E9}',
      '[[:alpha:]]',
    ])
      expect(regexRefusal(pattern)).toBeNull();
  });
});
