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
});
