import { ProgramrunError } from './programrun-error.js';

/** Why {@link parseStrictJson} refused a text. */
export type StrictJsonProblem = 'not_json' | 'duplicate_key' | 'too_deep';

/** Thrown by {@link parseStrictJson}: not JSON, an object with a key twice, or nested too deep. */
export class StrictJsonError extends ProgramrunError {
  /** What is wrong. */
  readonly problem: StrictJsonProblem;
  /** JSON pointer of the object with the duplicate key; '' for the root or other problems. */
  readonly pointer: string;
  /** The duplicate key, for `duplicate_key`. */
  readonly key: string | null;

  constructor(
    message: string,
    details: { problem?: StrictJsonProblem; pointer?: string; key?: string | null } = {},
  ) {
    super('strict_json_invalid', message);
    this.problem = details.problem ?? 'not_json';
    this.pointer = details.pointer ?? '';
    this.key = details.key ?? null;
  }
}

/**
 * Deepest nesting of arrays and objects {@link parseStrictJson} accepts.
 *
 * @example
 * ```ts
 * parseStrictJson('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)); // throws too_deep
 * ```
 */
export const MAX_JSON_DEPTH = 256;

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * Walks valid JSON text and throws on an object that names a key twice. Keys are
 * compared after unescaping, so `{"a":1,"\u0061":2}` is caught too.
 */
function assertUniqueKeys(text: string): void {
  let index = 0;
  const skipWhitespace = (): void => {
    while (index < text.length && WHITESPACE.has(text[index]!)) index += 1;
  };
  const readString = (): string => {
    const start = index;
    index += 1;
    while (text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
    index += 1;
    return JSON.parse(text.slice(start, index)) as string;
  };
  const skipValue = (path: string, depth: number): void => {
    skipWhitespace();
    const character = text[index];
    if ((character === '{' || character === '[') && depth >= MAX_JSON_DEPTH) {
      throw new StrictJsonError(
        `nested deeper than ${MAX_JSON_DEPTH} levels at ${path || '(root)'}`,
        {
          problem: 'too_deep',
          pointer: path,
        },
      );
    }
    if (character === '{') {
      index += 1;
      const keys = new Set<string>();
      skipWhitespace();
      if (text[index] === '}') {
        index += 1;
        return;
      }
      for (;;) {
        skipWhitespace();
        const key = readString();
        if (keys.has(key))
          throw new StrictJsonError(`duplicate key "${key}" in the object at ${path || '(root)'}`, {
            problem: 'duplicate_key',
            pointer: path,
            key,
          });
        keys.add(key);
        skipWhitespace();
        index += 1; // ':'
        skipValue(`${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
        skipWhitespace();
        if (text[index++] === '}') return;
      }
    }
    if (character === '[') {
      index += 1;
      skipWhitespace();
      if (text[index] === ']') {
        index += 1;
        return;
      }
      for (let item = 0; ; item += 1) {
        skipValue(`${path}/${item}`, depth + 1);
        skipWhitespace();
        if (text[index++] === ']') return;
      }
    }
    if (character === '"') {
      readString();
      return;
    }
    while (index < text.length && !',]}'.includes(text[index]!) && !WHITESPACE.has(text[index]!))
      index += 1;
  };
  skipValue('', 0);
}

/**
 * Parses JSON that is about to be signed, verified or acted on: like `JSON.parse`, but an
 * object with a duplicate key is an error instead of silently keeping the last value
 * (RFC 8785 §3.1, I-JSON), and so is nesting deeper than {@link MAX_JSON_DEPTH}.
 *
 * @example
 * ```ts
 * parseStrictJson('{"a":1}');       // { a: 1 }
 * parseStrictJson('{"a":1,"a":2}'); // throws StrictJsonError
 * ```
 */
export function parseStrictJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StrictJsonError(
      `not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  assertUniqueKeys(text);
  return value;
}
