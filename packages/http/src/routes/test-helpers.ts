import type { UnitOfWork } from '@programrun/engine';
import type { z } from 'zod';
import { HttpError } from '../errors/http-error.js';
import { jsonResponse } from '../json-response.js';
import { clockAdvanceBodySchema } from '../request-schemas.js';
import type { Route, RouteContext } from '../router.js';
import { testClockSchema, testClockStateSchema } from '../schemas/test-clock.js';
import { defineRoute } from './define-route.js';

/** Where an advance goes: seconds advanced and the clock's absolute target. */
type AdvancePlan = { advanced_by: number; target: string };

const clockAnswer = (
  advancedBy: number,
  moved: { now: string; fired: number },
  nextTimerAt: string | null,
) =>
  jsonResponse(200, {
    object: 'test_clock',
    now: moved.now,
    advanced_by: advancedBy,
    timers_fired: moved.fired,
    next_timer_at: nextTimerAt,
  });

/**
 * The target of an advance, read in `uow`: `seconds` on from the clock, or the account's
 * earliest pending timer (never backwards: one already due is fired where the clock is).
 */
async function planAdvance(
  uow: UnitOfWork,
  body: z.output<typeof clockAdvanceBodySchema>,
): Promise<AdvancePlan> {
  const now = (await uow.now()).getTime();
  if (body.to === undefined) {
    const seconds = body.seconds!;
    return { advanced_by: seconds, target: new Date(now + seconds * 1000).toISOString() };
  }
  const due = await uow.nextTimerDue();
  if (due === null) {
    throw new HttpError(
      'no_pending_timer',
      `The account has no pending timer to advance to (its test clock reads ${new Date(now).toISOString()}): its runs are finished or wait on a signal.`,
    );
  }
  const target = Math.max(now, Date.parse(due));
  return { advanced_by: (target - now) / 1000, target: new Date(target).toISOString() };
}

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
      'Moves the calling account’s test clock forward by `seconds`, or with `{ "to": "next_timer" }` to its earliest pending timer (`409 no_pending_timer` when there is none; a timer already due fires without moving the clock), firing each of its timers (deadlines, simulated partner answers) at its own due time; other accounts’ clocks do not move. Test keys only. With an Idempotency-Key, a retry replays the first answer instead of moving time again.',
    testOnly: true,
    idempotencyKey: 'optional',
    body: { schema: clockAdvanceBodySchema, required: true },
    responses: [
      { status: 200, description: 'The clock after the advance.', schema: testClockSchema },
    ],
    errors: ['no_pending_timer'],
  },
  {
    async now({ body }, { engine, principal }) {
      if (body.seconds !== undefined) {
        const moved = await engine.advanceTestClock(principal.account, body.seconds);
        return clockAnswer(body.seconds, moved, await engine.nextTimerDue(principal));
      }
      const plan = await engine.unitOfWork(principal, (uow) => planAdvance(uow, body));
      return carryOut(plan, { engine, principal });
    },
    plan: (uow, { body }) => planAdvance(uow, body),
    carryOut,
  },
);

/** Moves the clock to the plan's target and answers with where it is now. */
async function carryOut(
  { advanced_by, target }: AdvancePlan,
  { engine, principal }: Pick<RouteContext, 'engine' | 'principal'>,
): Promise<Response> {
  const moved = await engine.advanceTestClockTo(principal.account, new Date(target));
  return clockAnswer(advanced_by, moved, await engine.nextTimerDue(principal));
}

/** `GET /v1/test_helpers/clock`: the account's test clock and its next timer. */
const readClock = defineRoute(
  {
    method: 'GET',
    path: '/v1/test_helpers/clock',
    operationId: 'getTestClock',
    scope: 'runs:read',
    tag: 'Test helpers',
    summary: 'Read the test clock',
    description:
      'The calling account’s test clock and when its earliest pending timer (a deadline, a wait, a simulated partner’s answer) falls due on it (`next_timer_at`, null when none is pending). Test keys only.',
    testOnly: true,
    responses: [
      {
        status: 200,
        description: 'The clock and its next timer.',
        schema: testClockStateSchema,
      },
    ],
    errors: [],
  },
  {
    answer: async (_input, { engine, principal }) => {
      const { now, next } = await engine.unitOfWork(principal, async (uow) => ({
        now: await uow.now(),
        next: await uow.nextTimerDue(),
      }));
      return jsonResponse(200, {
        object: 'test_clock',
        now: now.toISOString(),
        next_timer_at: next,
      });
    },
  },
);

/** Test helpers: only for test keys. */
export const testHelperRoutes: readonly Route[] = [readClock, advanceClock];
