import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ADVANCE_SECONDS, parseAdvanceSeconds } from '../app/features/clock/advance-seconds.js';

describe('the seconds of "Advance by"', () => {
  it('accepts whole numbers of seconds from 1 to 366 days', () => {
    expect(parseAdvanceSeconds('60')).toEqual({ ok: true, seconds: 60 });
    expect(parseAdvanceSeconds(' 1 ')).toEqual({ ok: true, seconds: 1 });
    expect(parseAdvanceSeconds(String(MAX_ADVANCE_SECONDS))).toEqual({
      ok: true,
      seconds: 31_622_400,
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_ADVANCE_SECONDS }), (seconds) => {
        expect(parseAdvanceSeconds(String(seconds))).toEqual({ ok: true, seconds });
      }),
    );
  });

  it('refuses anything else before it is sent', () => {
    for (const text of [
      '',
      '0',
      '-5',
      '1.5',
      '1e3',
      '0x10',
      'ten',
      '+5',
      String(MAX_ADVANCE_SECONDS + 1),
      '99999999999999999999',
    ]) {
      expect(parseAdvanceSeconds(text)).toEqual({
        ok: false,
        message: 'Seconds must be a whole number from 1 to 31622400 (366 days).',
      });
    }
  });
});
