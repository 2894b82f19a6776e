import { ProgramrunError } from './programrun-error.js';

/** Thrown by {@link parseStrictJson}: not JSON, or an object with a key twice. */
export class StrictJsonError extends ProgramrunError {
  constructor(message: string) {
    super('strict_json_invalid', message);
  }
}

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
  const skipValue = (path: string): void => {
    skipWhitespace();
    const character = text[index];
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
          throw new StrictJsonError(`duplicate key "${key}" in the object at ${path || '(root)'}`);
        keys.add(key);
        skipWhitespace();
        index += 1; // ':'
        skipValue(`${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
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
        skipValue(`${path}/${item}`);
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
  skipValue('');
}

/**
 * Parses JSON that is about to be signed or verified: like `JSON.parse`, but an object
 * with a duplicate key is an error instead of silently keeping the last value (RFC 8785
 * §3.1, I-JSON).
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
