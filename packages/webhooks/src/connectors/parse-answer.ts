import { parseStrictJson, type JsonObject } from '@programrun/evidence';
import type { HandoffAnswer, HandoffOutcome } from '@programrun/engine';

/** The longest partner reference accepted. */
export const MAX_REFERENCE_LENGTH = 256;

const OUTCOMES: ReadonlySet<string> = new Set<HandoffOutcome>(['confirmed', 'rejected', 'failed']);
const KEYS: ReadonlySet<string> = new Set(['outcome', 'reference', 'data']);

/** A parsed answer, or why the body is not one. */
export type ParsedAnswer =
  | { readonly ok: true; readonly answer: HandoffAnswer }
  | { readonly ok: false; readonly problem: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(problem: string): ParsedAnswer {
  return { ok: false, problem };
}

/**
 * Validates a partner's answer body strictly: a JSON object (no duplicate keys) with
 * exactly `outcome` (`confirmed` | `rejected` | `failed`), `reference` (a non-empty
 * string of at most 256 characters) and optionally `data` (a JSON object); any other key
 * makes it invalid.
 *
 * @example
 * ```ts
 * parseHandoffAnswer('{"outcome":"confirmed","reference":"PAY-1"}'); // { ok: true, answer: { … } }
 * parseHandoffAnswer('{"outcome":"done"}').ok; // false
 * ```
 */
export function parseHandoffAnswer(body: string): ParsedAnswer {
  let value: unknown;
  try {
    value = parseStrictJson(body);
  } catch {
    return invalid('the body is not valid JSON');
  }
  if (!isObject(value)) return invalid('the body is not a JSON object');
  const unknown = Object.keys(value).find((key) => !KEYS.has(key));
  if (unknown !== undefined) return invalid(`unexpected member "${unknown.slice(0, 40)}"`);
  const { outcome, reference, data } = value;
  if (typeof outcome !== 'string' || !OUTCOMES.has(outcome)) {
    return invalid('outcome must be "confirmed", "rejected" or "failed"');
  }
  if (typeof reference !== 'string' || reference === '') {
    return invalid('reference must be a non-empty string');
  }
  if (reference.length > MAX_REFERENCE_LENGTH) {
    return invalid(`reference is longer than ${MAX_REFERENCE_LENGTH} characters`);
  }
  if (data !== undefined && !isObject(data)) return invalid('data must be a JSON object');
  const answer: HandoffAnswer = {
    outcome: outcome as HandoffOutcome,
    reference,
    ...(data === undefined ? {} : { data: data as JsonObject }),
  };
  return { ok: true, answer };
}
