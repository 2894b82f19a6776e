// An array of scalars as one line of text: `a, b, c` when that reads back the same,
// else a JSON array (`["a, b", ""]`), which is always accepted.
import type { Json } from '../../api/types.js';

/** The JSON Schema types a list field holds. */
export type ScalarType = 'string' | 'integer' | 'number' | 'boolean';

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** One comma-separated item as its type, or undefined when it is not one. */
function item(text: string, type: ScalarType): Json | undefined {
  switch (type) {
    case 'string':
      return text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'integer': {
      const number = Number(text);
      return INTEGER.test(text) && Number.isSafeInteger(number) ? number : undefined;
    }
    case 'number': {
      const number = Number(text);
      return NUMBER.test(text) && Number.isFinite(number) ? number : undefined;
    }
  }
}

const fits = (value: unknown, type: ScalarType): boolean => {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
  }
};

const NAMES: Readonly<Record<ScalarType, string>> = {
  string: 'texts',
  boolean: 'true or false',
  integer: 'whole numbers',
  number: 'numbers',
};

/** The text of a list: comma-separated when it reads back the same, else JSON. */
export function listText(values: readonly Json[]): string {
  const parts = values.map((value) =>
    typeof value === 'string' ? value : typeof value === 'object' ? null : JSON.stringify(value),
  );
  const plain =
    parts.length > 0 &&
    !(parts[0] ?? '').startsWith('[') &&
    parts.every(
      (part) => part !== null && part !== '' && part === part.trim() && !part.includes(','),
    );
  return plain ? parts.join(', ') : JSON.stringify(values);
}

/** The list of a text (empty text: left out), or what is wrong with it. */
export function parseList(
  text: string,
  type: ScalarType,
): { value: Json[] | undefined } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: undefined };
  const wrong = { error: `must be ${NAMES[type]}, comma-separated or as a JSON array` };
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return wrong;
    }
    return Array.isArray(parsed) && parsed.every((value) => fits(value, type))
      ? { value: parsed as Json[] }
      : wrong;
  }
  const values = trimmed.split(',').map((part) => item(part.trim(), type));
  const empty = trimmed.split(',').some((part) => part.trim() === '');
  if (empty || values.some((value) => value === undefined)) return wrong;
  return { value: values as Json[] };
}
