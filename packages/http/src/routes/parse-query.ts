import type { z } from 'zod';
import { HttpError } from '../errors/http-error.js';

/** The wording of an enum refusal when the schema has none of its own. */
const oneOf = (issue: z.core.$ZodRawIssue): string | undefined =>
  issue.code === 'invalid_value' ? `must be one of ${issue.values.join(', ')}` : undefined;

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
  const result = schema.safeParse(given, { error: oneOf });
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    pointer: `/${String(issue.path[0])}`,
    code: 'invalid_query',
    message: issue.message,
  }));
  throw new HttpError(
    'invalid_query',
    `${errors.map((error) => `${error.pointer.slice(1)} ${error.message}`).join('; ')}.`,
    { errors },
  );
}
