import { HttpError } from '../errors/http-error.js';
import { jsonResponse } from '../json-response.js';
import { readJsonBody } from '../request-body.js';
import { clockAdvanceBodySchema, parseBody } from '../request-schemas.js';
import type { Route } from '../router.js';

/** Test helpers: only for test keys. */
export const testHelperRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/test_helpers/clock/advance',
    handle: async ({ request, principal, engine, maxBodyBytes }) => {
      if (principal.environment !== 'test') {
        throw new HttpError(
          'test_mode_only',
          'The test clock exists only in the test environment; use a pr_test_ key.',
        );
      }
      const { seconds } = parseBody(
        clockAdvanceBodySchema,
        await readJsonBody(request, { maxBytes: maxBodyBytes }),
      );
      const { now, fired } = await engine.advanceTestClock(principal.account, seconds);
      return jsonResponse(200, {
        object: 'test_clock',
        now,
        advanced_by: seconds,
        timers_fired: fired,
      });
    },
  },
];
