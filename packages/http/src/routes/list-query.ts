import { HttpError } from '../errors/http-error.js';

/**
 * The `invalid_query` problem for one query parameter.
 *
 * @example
 * ```ts
 * throw invalidQuery('limit', 'must be an integer from 1 to 100');
 * ```
 */
export function invalidQuery(parameter: string, message: string): HttpError {
  return new HttpError('invalid_query', `${parameter} ${message}.`, {
    errors: [{ pointer: `/${parameter}`, code: 'invalid_query', message }],
  });
}

/**
 * The `limit` of a cursor list: 1 to 100, 10 by default.
 *
 * @example
 * ```ts
 * pageLimit(new URL('http://x/v1/events?limit=5').searchParams); // 5
 * ```
 */
export function pageLimit(params: URLSearchParams): number {
  const text = params.get('limit');
  const limit = text === null ? 10 : Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || text === '')
    throw invalidQuery('limit', 'must be an integer from 1 to 100');
  return limit;
}
