import { canonicalize as canonicalizeUnchecked } from 'json-canonicalize';
import { ProgramrunError } from './programrun-error.js';

/** A JSON value as RFC 8785 understands it: no `undefined`, BigInt, Dates or class instances. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
/** A plain JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/**
 * Thrown when a value cannot be canonicalized; `pointer` is the JSON pointer of the culprit.
 *
 * @example
 * ```ts
 * try { canonicalize({ a: 1n }); } catch (error) { (error as CanonicalJsonError).pointer; } // '/a'
 * ```
 */
export class CanonicalJsonError extends ProgramrunError {
  /** JSON pointer (RFC 6901) of the offending value; `""` is the root. */
  readonly pointer: string;

  constructor(pointer: string, reason: string) {
    super('canonical_json_invalid', `Cannot canonicalize ${pointer || '(root)'}: ${reason}`);
    this.pointer = pointer;
  }
}

const escapePointerToken = (token: string): string =>
  token.replace(/~/g, '~0').replace(/\//g, '~1');

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Throws {@link CanonicalJsonError} unless `value` is exactly representable in RFC 8785:
 * rejects what `json-canonicalize` would silently accept or rewrite (lone surrogates,
 * `toJSON`, class instances, Dates, BigInt, `undefined`, NaN and infinities).
 */
function assertCanonicalizable(value: unknown, pointer: string): void {
  switch (typeof value) {
    case 'string':
      if (!value.isWellFormed())
        throw new CanonicalJsonError(pointer, 'string has a lone surrogate');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(pointer, `${value} is not finite`);
      return;
    case 'boolean':
      return;
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(pointer, `${typeof value} is not a JSON value`);
  }
  if (value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => assertCanonicalizable(item, `${pointer}/${index}`));
    return;
  }
  if (!isPlainObject(value) || 'toJSON' in value) {
    throw new CanonicalJsonError(
      pointer,
      'only plain objects are allowed (no class instances, Dates or toJSON)',
    );
  }
  for (const [key, item] of Object.entries(value)) {
    const childPointer = `${pointer}/${escapePointerToken(key)}`;
    if (!key.isWellFormed()) throw new CanonicalJsonError(childPointer, 'key has a lone surrogate');
    assertCanonicalizable(item, childPointer);
  }
}

/**
 * RFC 8785 (JCS) canonical JSON text of `value`: sorted keys, ECMAScript number form,
 * minimal escaping. Strict: anything JCS cannot represent exactly throws
 * {@link CanonicalJsonError} instead of being dropped or rewritten.
 *
 * @example
 * ```ts
 * canonicalize({ b: 1, a: 'x' }); // '{"a":"x","b":1}'
 * canonicalize({ amount: 1n });   // throws CanonicalJsonError (money is a decimal string)
 * ```
 */
export function canonicalize(value: unknown): string {
  // The common case is valid JSON: check it cheaply, and only walk again building JSON
  // pointers when something is wrong.
  if (!isCanonicalizable(value)) assertCanonicalizable(value, '');
  return canonicalizeUnchecked(value);
}

/** Fast check of what {@link assertCanonicalizable} enforces, without building pointers. */
function isCanonicalizable(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return value.isWellFormed();
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object':
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(isCanonicalizable);
      if (!isPlainObject(value) || 'toJSON' in value) return false;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (!key.isWellFormed() || !isCanonicalizable((value as Record<string, unknown>)[key]))
          return false;
      }
      return true;
    default:
      return false;
  }
}
