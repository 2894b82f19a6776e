import type { UnitOfWork } from '@programrun/engine';
import type { JsonObject } from '@programrun/evidence';
import { completeResumable, decideResumable } from '../idempotency/resumable.js';
import type { OperationSpec } from '../openapi/operation-spec.js';
import type { RouteContext } from '../router.js';
import { answerErrors } from './answer-errors.js';
import { readWrite, type RouteInput } from './route-input.js';

/**
 * An action that cannot run inside one transaction but is idempotent given its plan
 * (moving a test clock to an absolute time). Without an Idempotency-Key it acts `now`;
 * with one, the `plan` is recorded with the key before anything happens, then `carryOut`
 * acts on it, so a retry replays the answer or resumes the same plan.
 */
export interface Resuming<S extends OperationSpec, Plan extends JsonObject> {
  readonly now: (input: RouteInput<S>, context: RouteContext) => Promise<Response>;
  readonly plan: (uow: UnitOfWork, input: RouteInput<S>, context: RouteContext) => Promise<Plan>;
  readonly carryOut: (plan: Plan, context: RouteContext) => Promise<Response>;
}

/**
 * Answers a {@link Resuming} route. The input is parsed now and a refusal answered after
 * a replay would have been, as for writes.
 */
export async function handleResume<S extends OperationSpec, Plan extends JsonObject>(
  spec: S,
  how: Resuming<S, Plan>,
  context: RouteContext,
): Promise<Response> {
  const { engine, principal, idempotency } = context;
  const { input, idempotent } = await readWrite(spec, context);
  if (idempotent === undefined) return answerErrors(context, () => how.now(input(), context));
  const response = await answerErrors(context, async () => {
    const decided = await engine.unitOfWork(principal, (uow) =>
      decideResumable(uow, idempotent, idempotency, () => how.plan(uow, input(), context)),
    );
    if ('replay' in decided) return decided.replay;
    const done = await how.carryOut(decided.plan as Plan, context);
    await engine.unitOfWork(principal, (uow) =>
      completeResumable(uow, idempotent, idempotency, done),
    );
    return done;
  });
  context.purgeExpiredKeys();
  return response;
}
