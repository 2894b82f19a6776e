import type { JsonObject } from '@programrun/evidence';
import type { HandoffAnswer, HandoffOutcome } from '../connectors/handoff-contract.js';
import { findUnstorable, textProblem } from '../store/storable-values.js';

/** The longest partner reference accepted. */
const MAX_REFERENCE_LENGTH = 256;
const OUTCOMES: ReadonlySet<unknown> = new Set<HandoffOutcome>(['confirmed', 'rejected', 'failed']);

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** Whether `value` is JSON: strings, finite numbers, booleans, null, arrays and plain objects. */
function isJson(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1));
  return isPlainObject(value) && Object.values(value).every((item) => isJson(item, depth + 1));
}

/**
 * What a connector resolved with, checked: an answer (`outcome` one of confirmed,
 * rejected, failed; `reference` a non-empty string of at most 256 characters; `data`, if
 * any, a JSON object every store keeps alike), or `'accepted'`; else why it is neither.
 */
export function checkConnectorValue(
  value: unknown,
):
  | { readonly ok: true; readonly value: HandoffAnswer | 'accepted' }
  | { readonly ok: false; readonly problem: string } {
  if (value === 'accepted') return { ok: true, value };
  if (!isPlainObject(value)) return { ok: false, problem: 'not an answer object or "accepted"' };
  const { outcome, reference, data } = value;
  if (!OUTCOMES.has(outcome))
    return { ok: false, problem: 'outcome must be "confirmed", "rejected" or "failed"' };
  if (typeof reference !== 'string' || reference === '' || reference.length > MAX_REFERENCE_LENGTH)
    return { ok: false, problem: 'reference must be a string of 1 to 256 characters' };
  if (textProblem(reference) !== undefined)
    return { ok: false, problem: 'reference holds a character no store keeps' };
  if (data !== undefined && (!isPlainObject(data) || !isJson(data)))
    return { ok: false, problem: 'data must be a JSON object' };
  if (data !== undefined && findUnstorable(data, 1).length > 0)
    return { ok: false, problem: 'data holds a value no store keeps' };
  const answer: HandoffAnswer = {
    outcome: outcome as HandoffOutcome,
    reference,
    ...(data === undefined ? {} : { data: data as JsonObject }),
  };
  return { ok: true, value: answer };
}
