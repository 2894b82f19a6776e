import type { UnitOfWork } from '@programrun/engine';
import type { JsonObject } from '@programrun/evidence';
import { HttpError } from '../errors/http-error.js';
import { answerIdempotently } from '../idempotency/idempotency.js';
import type { OperationSpec } from '../openapi/operation-spec.js';
import type { Route, RouteContext } from '../router.js';
import { answerErrors } from './answer-errors.js';
import { checkedNow } from './checked-now.js';
import { handleResume, type Resuming } from './handle-resume.js';
import { parseRouteInput, readRouteJson, readWrite, type RouteInput } from './route-input.js';

/** A read (or a delete without an Idempotency-Key): answered without a unit of work. */
export interface Answering<S extends OperationSpec> {
  readonly answer: (input: RouteInput<S>, context: RouteContext) => Promise<Response>;
}

function assertTestKey(context: RouteContext): void {
  if (context.principal.environment !== 'test') {
    throw new HttpError(
      'test_mode_only',
      'The test clock exists only in the test environment; use a pr_test_ key.',
    );
  }
}

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
 */
async function handleWork<S extends OperationSpec, P>(
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

/**
 * One endpoint from one source: its spec (method, path, the scope a credential needs, the
 * zod schemas of its path parameters, query and body, its responses and error codes),
 * which the OpenAPI document is generated from, and how it is handled with what those
 * schemas parsed: a read `answer`s; a write does its `work` in one unit of work with the
 * Idempotency-Key check and the stored answer in the same transaction ({@link Working});
 * an action that spans transactions records its `plan` with the key first
 * ({@link Resuming}). A route that is not public and names no scope is refused here
 * unless it says any credential may call it (`anyScope`).
 */
export function defineRoute<
  const S extends OperationSpec,
  P = RouteInput<S>,
  Plan extends JsonObject = JsonObject,
>(spec: S, how: Answering<S> | Working<S, P> | Resuming<S, Plan>): Route {
  // Fail closed: an authenticated route that names no scope would let any credential in.
  if (!spec.public && !spec.scope && !spec.anyScope) {
    throw new TypeError(
      `${spec.method} ${spec.path} needs a scope (or public: true, or anyScope: true)`,
    );
  }
  return {
    ...spec,
    handle: async (context) => {
      if (spec.testOnly) assertTestKey(context);
      if ('work' in how) return handleWork(spec, how, context);
      if ('plan' in how) return handleResume(spec, how, context);
      return how.answer(
        parseRouteInput(spec, context, await readRouteJson(spec, context)),
        context,
      );
    },
  };
}
