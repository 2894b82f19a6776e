import { describe, expect, it } from 'vitest';
import { addDuration, parseDuration } from '../src/index.js';

describe('parseDuration', () => {
  it('reads weeks, days, hours, minutes and seconds, and answers the same when asked again', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(parseDuration('PT15M')).toBe(900_000);
      expect(parseDuration('P1DT2H')).toBe(93_600_000);
      expect(parseDuration('P2W')).toBe(1_209_600_000);
      expect(parseDuration('PT1S')).toBe(1_000);
    }
  });

  it('refuses years, months and malformed texts every time', () => {
    for (const text of ['P1Y', 'P1M', 'PT', 'P', '15M', 'PT1.5S', 'P1DT']) {
      expect(() => parseDuration(text)).toThrow(/is not a duration/);
      expect(() => parseDuration(text)).toThrow(/is not a duration/);
    }
  });

  it('stays exact beyond the durations it keeps', () => {
    for (let seconds = 1; seconds <= 3_000; seconds += 1)
      expect(parseDuration(`PT${seconds}S`)).toBe(seconds * 1_000);
    expect(parseDuration('PT1S')).toBe(1_000);
    expect(addDuration(new Date('2026-01-01T00:00:00Z'), 'PT30M').toISOString()).toBe(
      '2026-01-01T00:30:00.000Z',
    );
  });
});
