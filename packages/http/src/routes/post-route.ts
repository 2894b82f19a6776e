import type { UnitOfWork } from '@programrun/engine';
import { answerIdempotently, idempotencyKeyOf } from '../idempotency/idempotency.js';
import { readJsonBody } from '../request-body.js';
import type { RouteContext } from '../router.js';
import { answerErrors } from './answer-errors.js';
import { checkedNow } from './checked-now.js';

/** How a POST route reads its request. */
export interface PostRouteOptions<T> {
  /** The Idempotency-Key is required (creations) rather than honoured when present. */
  readonly keyRequired: boolean;
  /** An empty body is accepted (as `{}`). @default !keyRequired */
  readonly allowEmpty?: boolean;
  /** Parses and validates the body (and path) into what `work` needs; runs before any transaction. */
  readonly parse: (body: unknown, context: RouteContext) => T;
}

/**
 * A POST route: reads the body, checks it before any transaction, then runs `work` in one
 * unit of work with the Idempotency-Key protocol (when a key is sent) in the same
 * transaction: replay or reuse is decided first, the work runs, its answer is stored, one
 * commit. Errors become problem+json (409s are stored for replay; validation failures
 * are not).
 *
 * @example
 * ```ts
 * const handle = postRoute(
 *   { keyRequired: false, parse: (body) => parseBody(cancelBodySchema, body) },
 *   async (uow, input, { params }) => jsonResponse(200, (await uow.signal(params.id!, { kind: 'cancel', ...input })).run),
 * );
 * ```
 */
export function postRoute<T>(
  options: PostRouteOptions<T>,
  work: (uow: UnitOfWork, input: T, context: RouteContext) => Promise<Response>,
) {
  return async (context: RouteContext): Promise<Response> => {
    const { request, principal, engine } = context;
    const body = await readJsonBody(request, {
      maxBytes: context.maxBodyBytes,
      allowEmpty: options.allowEmpty ?? !options.keyRequired,
    });
    const key = idempotencyKeyOf(request, { required: options.keyRequired });
    const input = checkedNow(() => options.parse(body, context));
    const answer = (uow: UnitOfWork) => answerErrors(context, () => work(uow, input(), context));
    const response = await answerErrors(context, () =>
      engine.unitOfWork(principal, (uow) =>
        key === undefined
          ? answer(uow)
          : answerIdempotently(
              uow,
              {
                scope: principal,
                key,
                method: request.method,
                path: context.url.pathname,
                body,
                requestId: context.requestId,
              },
              context.idempotency,
              () => answer(uow),
            ),
      ),
    );
    if (key !== undefined) context.purgeExpiredKeys();
    return response;
  };
}
