import { z } from 'zod';
import { timestampSchema } from './common.js';

/**
 * The `test_clock` object `POST /v1/test_helpers/clock/advance` answers with.
 *
 * @example
 * ```ts
 * testClockSchema.parse(await response.json()).timers_fired; // 2
 * ```
 */
export const testClockSchema = z
  .object({
    object: z.literal('test_clock'),
    now: timestampSchema.meta({ description: 'The test clock after the advance.' }),
    advanced_by: z.int().min(1).meta({ description: 'Seconds advanced, as requested.' }),
    timers_fired: z
      .int()
      .min(0)
      .meta({ description: 'Timers (deadlines, simulated partner answers) that fired.' }),
  })
  .meta({ id: 'TestClock', description: 'The test environment clock after an advance.' });
