import { describe, expect, it } from 'vitest';
import { parseOptions } from '../src/parse-options.js';
import { UsageError } from '../src/usage-error.js';

describe('parseOptions', () => {
  it('turns a multi-line parser error into one line that keeps the hint', () => {
    let caught: unknown;
    try {
      parseOptions(['--runs', '-3'], { runs: { type: 'string' } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const message = (caught as UsageError).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain("'--runs=-XYZ'");
  });

  it('takes the next argument as the value of a dashValue option, even one beginning with a dash', () => {
    const options = { kid: { type: 'string', dashValue: true }, runs: { type: 'string' } } as const;
    expect(parseOptions(['--kid', '-Ab3', 'bundle.json'], options)).toEqual({
      values: { kid: '-Ab3' },
      positionals: ['bundle.json'],
    });
    expect(parseOptions(['--kid=-Ab3'], options).values).toEqual({ kid: '-Ab3' });
    expect(parseOptions(['--', '--kid', '-x'], options).positionals).toEqual(['--kid', '-x']);
    expect(() => parseOptions(['--runs', '-3'], options)).toThrow(UsageError);
  });
});
