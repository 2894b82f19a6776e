import { isStoreError } from '@programrun/engine';
import { rememberResponseText } from '../body-cache.js';
import { toProblem } from '../errors/problem-response.js';
import { HttpError } from '../errors/http-error.js';
import { rememberFailure } from '../logging/failures.js';
import type { RouteContext } from '../router.js';

/** Store errors a unit of work retries whole: they must reach it, not become answers. */
const retriedByTheUnitOfWork = (error: unknown): boolean =>
  isStoreError(error, 'version_conflict') || isStoreError(error, 'duplicate_key');

/**
 * Runs `work` and turns any error into its problem+json response, so idempotency can
 * store decided outcomes (such as a 409) like successes. Conflicts a unit of work retries
 * are rethrown to it.
 */
export async function answerErrors(
  context: Pick<RouteContext, 'requestId'>,
  work: () => Promise<Response>,
): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (retriedByTheUnitOfWork(error)) throw error;
    return problemResponse(error, context.requestId);
  }
}

/**
 * The problem+json response for an error.
 */
export function problemResponse(error: unknown, requestId: string): Response {
  const problem = toProblem(error, requestId);
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (error instanceof HttpError) Object.assign(headers, error.headers);
  const text = JSON.stringify(problem);
  const response = rememberResponseText(
    new Response(text, { status: problem.status, headers }),
    text,
  );
  // A 5xx is logged by the handler with what was thrown; the caller never sees it.
  return problem.status >= 500 ? rememberFailure(response, error, problem.code) : response;
}
