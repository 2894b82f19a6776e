import { describe, expect, it } from 'vitest';
import { compileInputSchema, InputSchemaError } from './input-validator.js';

const timed = <T>(work: () => T): { ms: number; value: T } => {
  const started = performance.now();
  const value = work();
  return { ms: performance.now() - started, value };
};

describe('regular expressions of input schemas', () => {
  const validator = compileInputSchema({
    type: 'object',
    properties: {
      reference: { type: 'string', pattern: '^(a+)+$' },
      tags: { type: 'object', patternProperties: { '^(x+x+)+y$': { type: 'string' } } },
      mail: { type: 'string', format: 'email' },
      link: { type: 'string', format: 'uri' },
    },
  });

  it('answers the backtracking `pattern` attack (31+ characters) in milliseconds', () => {
    for (const length of [31, 33, 1_000, 50_000]) {
      const { ms, value } = timed(() =>
        validator.validate({ reference: 'a'.repeat(length) + '!' }),
      );
      expect(value).toEqual([
        { pointer: '/reference', code: 'invalid_input', message: 'must match pattern "^(a+)+$"' },
      ]);
      expect(ms).toBeLessThan(length > 1_000 ? 500 : 50);
    }
    expect(validator.validate({ reference: 'aaaa' })).toEqual([]);
  });

  it('matches `patternProperties` keys on RE2 too', () => {
    const key = 'x'.repeat(40);
    const { ms, value } = timed(() => validator.validate({ tags: { [key]: 1, xxy: 'ok' } }));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(50);
    expect(validator.validate({ tags: { xxy: 1 } })).toEqual([
      { pointer: '/tags/xxy', code: 'invalid_input', message: 'must be string' },
    ]);
  });

  it('checks standard formats on RE2', () => {
    const { ms } = timed(() =>
      validator.validate({
        mail: `${'a'.repeat(5_000)}@${'a-'.repeat(5_000)}!`,
        link: `http://${'%20'.repeat(10_000)}\u0000`,
      }),
    );
    expect(ms).toBeLessThan(500);
    expect(
      validator.validate({ mail: 'ops@example.com', link: 'https://example.com/a?b' }),
    ).toEqual([]);
  });

  it('refuses patterns RE2 does not have, naming their place', () => {
    const refusal = (schema: Record<string, unknown>) => {
      try {
        compileInputSchema(schema);
      } catch (error) {
        expect(error).toBeInstanceOf(InputSchemaError);
        return { pointer: (error as InputSchemaError).pointer, message: (error as Error).message };
      }
      throw new Error('not refused');
    };
    expect(
      refusal({ type: 'object', properties: { a: { type: 'string', pattern: '^(?=x)x' } } }),
    ).toEqual({
      pointer: '/properties/a/pattern',
      message: expect.stringContaining('uses lookahead'),
    });
    expect(
      refusal({ type: 'object', patternProperties: { '(a)\\1': { type: 'string' } } }),
    ).toEqual({
      pointer: '/patternProperties/(a)\\1',
      message: expect.stringContaining('uses backreference'),
    });
  });
});
