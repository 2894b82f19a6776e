import { ProgramrunError } from '@programrun/evidence';

/** Durations already parsed (a scenario's few, parsed again on every transition). */
const parsedDurations = new Map<string, number>();
const PARSED_DURATIONS_MAX = 1_024;

const DURATION = /^P(?!$)(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/**
 * Milliseconds in a fixed-length ISO 8601 duration (weeks, days, hours, minutes,
 * seconds; a day is 24 hours). Years and months are refused: their length varies.
 *
 * @example
 * ```ts
 * parseDuration('PT15M'); // 900000
 * parseDuration('P1DT2H'); // 93600000
 * ```
 */
export function parseDuration(duration: string): number {
  const known = parsedDurations.get(duration);
  if (known !== undefined) return known;
  const match = DURATION.exec(duration);
  if (!match)
    throw new ProgramrunError(
      'invalid_duration',
      `"${duration}" is not a duration such as PT15M or P1D`,
    );
  const [, weeks, days, hours, minutes, seconds] = match.map((part) => Number(part ?? 0));
  const milliseconds =
    ((((weeks! * 7 + days!) * 24 + hours!) * 60 + minutes!) * 60 + seconds!) * 1000;
  if (parsedDurations.size >= PARSED_DURATIONS_MAX) parsedDurations.clear();
  parsedDurations.set(duration, milliseconds);
  return milliseconds;
}

/**
 * `start` plus a duration, as a new Date.
 *
 * @example
 * ```ts
 * addDuration(new Date('2026-01-01T00:00:00Z'), 'PT30M').toISOString(); // '2026-01-01T00:30:00.000Z'
 * ```
 */
export function addDuration(start: Date, duration: string): Date {
  return new Date(start.getTime() + parseDuration(duration));
}
