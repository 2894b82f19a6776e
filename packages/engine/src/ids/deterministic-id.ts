import { sha256Digest } from '@programrun/evidence';

/**
 * The one rule for ids derived from what they name: `<prefix>_` and the first `length` hex
 * digits of the sha-256 of `input`. The same input always gives the same id, on every host
 * and in every replay: lifecycle records (`evt_`), timers (`tmr_`), partner idempotency
 * keys (`pik_`), deliveries (`wdl_`), simulated references (`sim_`).
 *
 * @example
 * ```ts
 * deterministicId('evt', 'prun_1:1'); // 'evt_' + 32 hex digits
 * deterministicId('sim', 'pik_…', 24); // 'sim_' + 24 hex digits
 * ```
 */
export function deterministicId(prefix: string, input: string, length = 32): string {
  return `${prefix}_${sha256Digest(input).slice(7, 7 + length)}`;
}
