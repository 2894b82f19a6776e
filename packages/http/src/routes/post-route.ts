import { readJsonBody } from '../request-body.js';
import type { RouteContext } from '../router.js';
import { answerErrors } from './answer-errors.js';
import { idempotentRoute } from './idempotent.js';

/**
 * A POST route: read the body (empty allowed unless the key is required), honour
 * Idempotency-Key, answer errors as problems.
 *
 * @example
 * ```ts
 * const handle = postRoute(false, async ({ engine, principal }, body) => jsonResponse(200, body));
 * ```
 */
export function postRoute(
  required: boolean,
  work: (context: RouteContext, body: unknown) => Promise<Response>,
) {
  return async (context: RouteContext): Promise<Response> => {
    const body = await readJsonBody(context.request, {
      maxBytes: context.maxBodyBytes,
      allowEmpty: !required,
    });
    return idempotentRoute(context, body, { required }, () =>
      answerErrors(context, () => work(context, body)),
    );
  };
}
