import { HttpError } from '../errors/http-error.js';
import { idempotencyKeyOf } from '../idempotency/idempotency.js';
import { completeResumable, decideResumable } from '../idempotency/resumable.js';
import { jsonResponse } from '../json-response.js';
import { readJsonBody } from '../request-body.js';
import { clockAdvanceBodySchema, parseBody } from '../request-schemas.js';
import type { Route, RouteContext } from '../router.js';
import { answerErrors } from './answer-errors.js';
import { checkedNow } from './checked-now.js';

/**
 * `POST /v1/test_helpers/clock/advance`. With an Idempotency-Key, the clock's absolute
 * target is recorded with the key before time moves, so a retried advance replays (or
 * resumes to the same target) instead of moving time twice.
 */
async function advanceClock(context: RouteContext): Promise<Response> {
  const { request, principal, engine, maxBodyBytes } = context;
  if (principal.environment !== 'test') {
    throw new HttpError(
      'test_mode_only',
      'The test clock exists only in the test environment; use a pr_test_ key.',
    );
  }
  const body = await readJsonBody(request, { maxBytes: maxBodyBytes });
  const key = idempotencyKeyOf(request, { required: false });
  const seconds = checkedNow(() => parseBody(clockAdvanceBodySchema, body).seconds);
  const answer = (advancedBy: number, moved: { now: string; fired: number }) =>
    jsonResponse(200, {
      object: 'test_clock',
      now: moved.now,
      advanced_by: advancedBy,
      timers_fired: moved.fired,
    });
  if (key === undefined) {
    return answerErrors(context, async () =>
      answer(seconds(), await engine.advanceTestClock(principal.account, seconds())),
    );
  }
  const idempotent = {
    scope: principal,
    key,
    method: request.method,
    path: context.url.pathname,
    body,
    requestId: context.requestId,
  };
  const response = await answerErrors(context, async () => {
    const decided = await engine.unitOfWork(principal, (uow) =>
      decideResumable(uow, idempotent, context.idempotency, async () => {
        const advancedBy = seconds();
        const now = await uow.now();
        return {
          advanced_by: advancedBy,
          target: new Date(now.getTime() + advancedBy * 1000).toISOString(),
        };
      }),
    );
    if ('replay' in decided) return decided.replay;
    const { advanced_by: advancedBy, target } = decided.plan as {
      advanced_by: number;
      target: string;
    };
    const moved = await engine.advanceTestClockTo(principal.account, new Date(target));
    const advanced = answer(advancedBy, moved);
    await engine.unitOfWork(principal, (uow) =>
      completeResumable(uow, idempotent, context.idempotency, advanced),
    );
    return advanced;
  });
  context.purgeExpiredKeys();
  return response;
}

/** Test helpers: only for test keys. */
export const testHelperRoutes: readonly Route[] = [
  { method: 'POST', path: '/v1/test_helpers/clock/advance', handle: advanceClock },
];
