/** Where a JSON value (and, inside an object, its key) starts: 1-based line and column. */
export interface JsonPosition {
  readonly line: number;
  readonly column: number;
}

/** Positions of the keys and values of a JSON document, by JSON pointer (`''` is the root). */
export interface JsonPositions {
  readonly values: ReadonlyMap<string, JsonPosition>;
  readonly keys: ReadonlyMap<string, JsonPosition>;
}

const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Line and column (1-based) of each offset of `text`. */
function positionAt(text: string): (offset: number) => JsonPosition {
  const starts = [0];
  for (let index = 0; index < text.length; index += 1)
    if (text[index] === '\n') starts.push(index + 1);
  return (offset) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1]! <= offset) line += 1;
    return { line: line + 1, column: offset - starts[line]! + 1 };
  };
}

/**
 * Maps every value and key of a JSON text that `JSON.parse` accepts to its position, so
 * a problem found by pointer can be reported as `file:line:column`.
 */
export function jsonPositions(text: string): JsonPositions {
  const at = positionAt(text);
  const values = new Map<string, JsonPosition>();
  const keys = new Map<string, JsonPosition>();
  let index = 0;
  const skipWhitespace = () => {
    while (index < text.length && /\s/.test(text[index]!)) index += 1;
  };
  const readString = (): string => {
    const start = index;
    index += 1;
    while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
    index += 1;
    return JSON.parse(text.slice(start, index)) as string;
  };
  const value = (pointer: string): void => {
    skipWhitespace();
    values.set(pointer, at(index));
    const character = text[index];
    if (character === '{') {
      index += 1;
      skipWhitespace();
      while (text[index] !== '}' && index < text.length) {
        skipWhitespace();
        const keyStart = index;
        const child = `${pointer}/${escapeToken(readString())}`;
        keys.set(child, at(keyStart));
        skipWhitespace();
        index += 1; // ':'
        value(child);
        skipWhitespace();
        if (text[index] === ',') index += 1;
        skipWhitespace();
      }
      index += 1;
    } else if (character === '[') {
      index += 1;
      skipWhitespace();
      for (let item = 0; text[index] !== ']' && index < text.length; item += 1) {
        value(`${pointer}/${item}`);
        skipWhitespace();
        if (text[index] === ',') index += 1;
        skipWhitespace();
      }
      index += 1;
    } else if (character === '"') {
      readString();
    } else {
      while (index < text.length && !/[\s,\]}]/.test(text[index]!)) index += 1;
    }
  };
  value('');
  return { values, keys };
}

/**
 * Line and column of a JSON syntax error, from the offset V8 names in its message
 * (`… in JSON at position 12`); 1:1 when it names none.
 */
export function syntaxErrorPosition(text: string, error: unknown): JsonPosition {
  const match = /at position (\d+)/.exec(error instanceof Error ? error.message : '');
  return match ? positionAt(text)(Math.min(Number(match[1]), text.length)) : { line: 1, column: 1 };
}
