import type { UnitOfWork } from '@programrun/engine';
import { answerIdempotently } from '../idempotency/idempotency.js';
import type { OperationSpec } from '../openapi/operation-spec.js';
import type { RouteContext } from '../router.js';
import { answerErrors } from './answer-errors.js';
import { checkedNow } from './checked-now.js';
import { readWrite, type RouteInput } from './route-input.js';

/**
 * A write: `prepare` (checks that need no store) runs once before any transaction; `work`
 * runs in one unit of work with the Idempotency-Key protocol in the same transaction.
 */
export interface Working<S extends OperationSpec, P> {
  readonly prepare?: (input: RouteInput<S>, context: RouteContext) => P;
  readonly work: (uow: UnitOfWork, prepared: P, context: RouteContext) => Promise<Response>;
}

/**
 * Answers a {@link Working} route: reads the request and prepares its input before any
 * transaction, then one unit of work: the Idempotency-Key check when a key is sent, the
 * work, the stored answer, one commit. Errors become problem+json inside it, so a decided
 * 409 is stored for replay.
 *
 * @example
 * ```ts
 * return handleWork(spec, { work: async (uow, { body }) => jsonResponse(201, await uow.createRun(body)) }, context);
 * ```
 */
export async function handleWork<S extends OperationSpec, P>(
  spec: S,
  how: Working<S, P>,
  context: RouteContext,
): Promise<Response> {
  const { input, idempotent } = await readWrite(spec, context);
  // Prepared once, now; a refusal is answered after a replay would have been.
  const prepared = checkedNow(() => (how.prepare ? how.prepare(input(), context) : (input() as P)));
  const answer = (uow: UnitOfWork) =>
    answerErrors(context, () => how.work(uow, prepared(), context));
  const response = await answerErrors(context, () =>
    context.engine.unitOfWork(context.principal, (uow) =>
      idempotent === undefined
        ? answer(uow)
        : answerIdempotently(uow, idempotent, context.idempotency, () => answer(uow)),
    ),
  );
  if (idempotent !== undefined) context.purgeExpiredKeys();
  return response;
}
