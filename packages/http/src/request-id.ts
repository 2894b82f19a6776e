import { randomBase62 } from '@programrun/engine';
import { problemResponse } from './routes/answer-errors.js';

/**
 * A new `Request-Id`: `req_` and 20 random base62 characters.
 */
export function newRequestId(): string {
  return `req_${randomBase62(20)}`;
}

/**
 * The problem+json answer to an error raised outside `handle` (an adapter that cannot
 * build the request, say), with a fresh `Request-Id` in header and body like every other
 * answer. Unknown errors become `500 internal_error` without details.
 */
export function adapterProblem(error: unknown): Response {
  const requestId = newRequestId();
  const response = problemResponse(error, requestId);
  response.headers.set('request-id', requestId);
  return response;
}
