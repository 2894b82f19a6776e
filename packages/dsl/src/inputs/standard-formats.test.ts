import fc from 'fast-check';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { STANDARD_FORMATS } from './standard-formats.js';

/** ajv-formats' own check of a format, the reference the RE2 versions must agree with. */
function reference(name: string): (value: string) => boolean {
  const format = (fullFormats as Record<string, unknown>)[name];
  if (format instanceof RegExp) return (value) => format.test(value);
  if (typeof format === 'function') return format as (value: string) => boolean;
  const { validate } = format as { validate: RegExp | ((value: string) => boolean) };
  return validate instanceof RegExp ? (value) => validate.test(value) : validate;
}

const SAMPLES = [
  '2024-02-29',
  '2023-02-29',
  '2024-13-01',
  '2024-01-01T10:00:00Z',
  '2024-01-01t10:00:00z',
  '2024-01-01 10:00:00+01:00',
  '2024-01-01T10:00:00',
  '2024-01-01T23:59:60Z',
  '2024-01-01T22:59:60-01:00',
  '2024-01-01T10:00:00.123+0100',
  'ops@example.com',
  'a.b@c',
  'x@-a.com',
  'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
  '123E4567-E89B-12D3-A456-426614174000',
  'https://example.com/a?b#c',
  'http://[::1]:80/',
  'http://[2001:db8::1]/',
  'http://[::ffff:1.2.3.4]/',
  'http://[v1.x]/',
  'mailto:ops@example.com',
  'http://user:pw@host:8080/p/a/t/h?query=1#frag',
  'http://1.2.3.4/%zz',
  'a:b',
  'abc',
  '//x',
  'http://a b',
];

const PIECES = [
  ..."abcxyzAZ019:/?#[]@!$&'()*+,;=-._~%v ".split(''),
  'http://',
  '::',
  '1.2.3.4',
  'ffff:',
  '%20',
  'T',
  '2024-01-01',
  '10:00:00',
  'Z',
  '+01:00',
  'urn:uuid:',
];

describe('standard formats on RE2', () => {
  describe.each(Object.keys(STANDARD_FORMATS))('%s', (name) => {
    const ours = STANDARD_FORMATS[name]!;
    const theirs = reference(name);

    it('agrees with ajv-formats (full mode) on known samples', () => {
      for (const sample of SAMPLES)
        expect([sample, ours(sample)]).toEqual([sample, theirs(sample)]);
    });

    it('agrees with ajv-formats on generated strings', () => {
      const strings = fc
        .array(fc.constantFrom(...PIECES), { maxLength: 14 })
        .map((parts) => parts.join(''));
      fc.assert(
        fc.property(strings, (value) => ours(value) === theirs(value)),
        { numRuns: 3_000 },
      );
    });
  });
});
