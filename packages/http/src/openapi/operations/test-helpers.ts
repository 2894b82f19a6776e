import { clockAdvanceBodySchema } from '../../request-schemas.js';
import { testClockSchema } from '../../schemas/test-clock.js';
import type { OperationSpec } from '../operation-spec.js';

/**
 * The operations of routes/test-helpers.ts.
 *
 * @example
 * ```ts
 * testHelperOperations[0]!.path; // '/v1/test_helpers/clock/advance'
 * ```
 */
export const testHelperOperations: readonly OperationSpec[] = [
  {
    method: 'POST',
    path: '/v1/test_helpers/clock/advance',
    operationId: 'advanceTestClock',
    tag: 'Test helpers',
    summary: 'Advance the test clock',
    description:
      'Moves the calling account’s test clock forward, firing each of its timers (deadlines, simulated partner answers) at its own due time; other accounts’ clocks do not move. Test keys only. With an Idempotency-Key, a retry replays the first answer instead of moving time again.',
    idempotencyKey: 'optional',
    body: { schema: clockAdvanceBodySchema, required: true },
    responses: [
      { status: 200, description: 'The clock after the advance.', schema: testClockSchema },
    ],
    errors: ['test_mode_only'],
  },
];
