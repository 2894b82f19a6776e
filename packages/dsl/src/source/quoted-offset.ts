/** Characters a double-quoted YAML escape spans after the backslash, by escape letter. */
const HEX_ESCAPES: Readonly<Record<string, number>> = { x: 3, u: 5, U: 9 };

/**
 * Offset in the raw text of a one-line quoted YAML scalar (without its opening quote) of
 * character `offset` of its value: `''` is one character in single quotes, an escape such
 * as `\\` or `\x41` one character in double quotes.
 */
export function rawOffsetInQuoted(
  raw: string,
  offset: number,
  type: 'QUOTE_SINGLE' | 'QUOTE_DOUBLE',
): number {
  let position = 0;
  for (let index = 0; index < offset && position < raw.length; index += 1) {
    if (type === 'QUOTE_SINGLE') position += raw.startsWith("''", position) ? 2 : 1;
    else if (raw[position] === '\\') position += HEX_ESCAPES[raw[position + 1] ?? ''] ?? 2;
    else position += 1;
  }
  return position;
}
