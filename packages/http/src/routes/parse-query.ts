import type { z } from 'zod';
import { HttpError } from '../errors/http-error.js';

/** The wording of an enum refusal when the schema has none of its own. */
const oneOf = (issue: z.core.$ZodRawIssue): string | undefined =>
  issue.code === 'invalid_value' ? `must be one of ${issue.values.join(', ')}` : undefined;

/**
 * Parameters parsed with their schema, or `code` (422) naming every bad one, once, with a
 * pointer (`/limit`, `/id`).
 */
function parseParameters<T extends z.ZodObject>(
  schema: T,
  given: Readonly<Record<string, string>>,
  code: 'invalid_query' | 'invalid_path',
): z.output<T> {
  const result = schema.safeParse(given, { error: oneOf });
  if (result.success) return result.data;
  // One problem per parameter: the first its schema found.
  const byPointer = new Map<string, { pointer: string; code: typeof code; message: string }>();
  for (const issue of result.error.issues) {
    const pointer = `/${String(issue.path[0])}`;
    if (!byPointer.has(pointer)) byPointer.set(pointer, { pointer, code, message: issue.message });
  }
  const errors = [...byPointer.values()];
  throw new HttpError(
    code,
    `${errors.map((error) => `${error.pointer.slice(1)} ${error.message}`).join('; ')}.`,
    { errors },
  );
}

/**
 * The query parameters a route declares, parsed with its schema: the first value of each
 * (others are ignored, as are parameters it does not declare). Anything that does not
 * parse is `422 invalid_query` naming every bad parameter.
 */
export function parseQuery<T extends z.ZodObject>(schema: T, url: URL): z.output<T> {
  const given: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = url.searchParams.get(name);
    if (value !== null) given[name] = value;
  }
  return parseParameters(schema, given, 'invalid_query');
}

/**
 * The path parameters of a route, parsed with its schema: anything that does not parse
 * (an id with U+0000, longer than 255 characters) is `422 invalid_path` naming each.
 */
export function parsePath<T extends z.ZodObject>(
  schema: T,
  params: Readonly<Record<string, string>>,
): z.output<T> {
  return parseParameters(schema, params, 'invalid_path');
}
