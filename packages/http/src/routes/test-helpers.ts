import { HttpError } from '../errors/http-error.js';
import { jsonResponse } from '../json-response.js';
import { readJsonBody } from '../request-body.js';
import { clockAdvanceBodySchema, parseBody } from '../request-schemas.js';
import type { Route } from '../router.js';
import { answerErrors } from './answer-errors.js';
import { idempotentRoute } from './idempotent.js';

/** Test helpers: only for test keys. */
export const testHelperRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/test_helpers/clock/advance',
    handle: async (context) => {
      const { request, principal, engine, maxBodyBytes } = context;
      if (principal.environment !== 'test') {
        throw new HttpError(
          'test_mode_only',
          'The test clock exists only in the test environment; use a pr_test_ key.',
        );
      }
      const body = await readJsonBody(request, { maxBytes: maxBodyBytes });
      // With an Idempotency-Key, a retried advance replays instead of moving time twice.
      return idempotentRoute(context, body, { required: false }, () =>
        answerErrors(context, async () => {
          const { seconds } = parseBody(clockAdvanceBodySchema, body);
          const { now, fired } = await engine.advanceTestClock(principal.account, seconds);
          return jsonResponse(200, {
            object: 'test_clock',
            now,
            advanced_by: seconds,
            timers_fired: fired,
          });
        }),
      );
    },
  },
];
