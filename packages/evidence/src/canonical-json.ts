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
    // A hole reads as `undefined`, which JSON has no form for.
    for (let index = 0; index < value.length; index += 1)
      assertCanonicalizable(value[index], `${pointer}/${index}`);
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
  // The common case is valid JSON: written in one pass that gives up at the first value
  // JCS cannot represent; only then is the value walked again to name the culprit.
  const text = canonicalText(value);
  if (text !== undefined) return text;
  assertCanonicalizable(value, '');
  // Unreachable: the walk throws for whatever made the text undefined.
  throw new CanonicalJsonError('', 'not a JSON value');
}

/** A text whose JSON form is itself in quotes: printable ASCII without `"` or `\\`. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The canonical text of a string, or undefined when it has a lone surrogate. */
const stringText = (text: string): string | undefined =>
  PLAIN_TEXT.test(text) ? `"${text}"` : text.isWellFormed() ? JSON.stringify(text) : undefined;

/** Each key's `"key":` text (keys repeat across records); cleared when it grows large. */
const keyTexts = new Map<string, string>();
const KEY_TEXTS_MAX = 4_096;

function keyText(key: string): string | undefined {
  let text = keyTexts.get(key);
  if (text === undefined) {
    const quoted = stringText(key);
    if (quoted === undefined) return undefined;
    text = `${quoted}:`;
    if (keyTexts.size >= KEY_TEXTS_MAX) keyTexts.clear();
    keyTexts.set(key, text);
  }
  return text;
}

/** An object's keys in UTF-16 code-unit order (already sorted ones are left as they are). */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  for (let index = 1; index < keys.length; index += 1) {
    if (keys[index - 1]! > keys[index]!) return keys.sort();
  }
  return keys;
}

/**
 * The canonical text of `value`, or undefined when something in it has no exact JCS form.
 * RFC 8785 serializes as ECMAScript's `JSON.stringify` does (§3.2.2: strings with minimal
 * escaping once they are well formed, numbers in their shortest round-trip form, `-0` as
 * `0`) with each object's keys sorted by UTF-16 code units (§3.2.3), which is how
 * `Array.prototype.sort` and `>` compare strings.
 */
function canonicalText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringText(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      const item = canonicalText(value[index]);
      if (item === undefined) return undefined;
      text += index === 0 ? item : `,${item}`;
    }
    return `${text}]`;
  }
  if (!isPlainObject(value) || 'toJSON' in value) return undefined;
  const keys = sortedKeys(value);
  let text = '{';
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    const name = keyText(key);
    if (name === undefined) return undefined;
    const item = canonicalText((value as Record<string, unknown>)[key]);
    if (item === undefined) return undefined;
    text += index === 0 ? `${name}${item}` : `,${name}${item}`;
  }
  return `${text}}`;
}
