import { jsonResponse } from '../json-response.js';
import { clockAdvanceBodySchema } from '../request-schemas.js';
import type { Route } from '../router.js';
import { testClockSchema } from '../schemas/test-clock.js';
import { defineRoute } from './define-route.js';

const clockAnswer = (advancedBy: number, moved: { now: string; fired: number }) =>
  jsonResponse(200, {
    object: 'test_clock',
    now: moved.now,
    advanced_by: advancedBy,
    timers_fired: moved.fired,
  });

/**
 * `POST /v1/test_helpers/clock/advance`. With an Idempotency-Key, the clock's absolute
 * target is recorded with the key before time moves, so a retried advance replays (or
 * resumes to the same target) instead of moving time twice.
 */
const advanceClock = defineRoute(
  {
    method: 'POST',
    path: '/v1/test_helpers/clock/advance',
    operationId: 'advanceTestClock',
    scope: 'runs:write',
    tag: 'Test helpers',
    summary: 'Advance the test clock',
    description:
      'Moves the calling account’s test clock forward, firing each of its timers (deadlines, simulated partner answers) at its own due time; other accounts’ clocks do not move. Test keys only. With an Idempotency-Key, a retry replays the first answer instead of moving time again.',
    testOnly: true,
    idempotencyKey: 'optional',
    body: { schema: clockAdvanceBodySchema, required: true },
    responses: [
      { status: 200, description: 'The clock after the advance.', schema: testClockSchema },
    ],
    errors: [],
  },
  {
    now: async ({ body: { seconds } }, { engine, principal }) =>
      clockAnswer(seconds, await engine.advanceTestClock(principal.account, seconds)),
    plan: async (uow, { body: { seconds } }) => {
      const now = await uow.now();
      return {
        advanced_by: seconds,
        target: new Date(now.getTime() + seconds * 1000).toISOString(),
      };
    },
    carryOut: async ({ advanced_by, target }, { engine, principal }) =>
      clockAnswer(
        advanced_by,
        await engine.advanceTestClockTo(principal.account, new Date(target)),
      ),
  },
);

/** Test helpers: only for test keys. */
export const testHelperRoutes: readonly Route[] = [advanceClock];
