import { idempotencyKeyOf, withIdempotency } from '../idempotency/idempotency.js';
import type { RouteContext } from '../router.js';

/**
 * Runs a POST route under the Idempotency-Key protocol: the key is required for
 * creations and honoured when present on signals.
 *
 * @example
 * ```ts
 * return idempotentRoute(context, body, { required: true }, () => answerErrors(context, create));
 * ```
 */
export function idempotentRoute(
  context: RouteContext,
  body: unknown,
  options: { readonly required: boolean },
  work: () => Promise<Response>,
): Promise<Response> {
  const key = idempotencyKeyOf(context.request, options);
  if (key === undefined) return work();
  return withIdempotency(
    {
      store: context.engine.store,
      scope: context.principal,
      key,
      method: context.request.method,
      path: context.url.pathname,
      body,
      requestId: context.requestId,
    },
    context.idempotency,
    work,
  );
}
