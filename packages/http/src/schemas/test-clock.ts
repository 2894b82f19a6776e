import { z } from 'zod';
import { timestampSchema } from './common.js';

const nextTimerAtSchema = timestampSchema.nullable().meta({
  description:
    'When the account’s earliest pending timer (a deadline, a wait, a simulated partner’s answer) falls due on this clock; null when none is pending.',
});

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
    advanced_by: z.number().min(0).meta({
      description:
        'Seconds advanced: as requested, or up to the next timer (`to: next_timer`; 0 when it was already due, milliseconds as a fraction).',
    }),
    timers_fired: z
      .int()
      .min(0)
      .meta({ description: 'Timers (deadlines, simulated partner answers) that fired.' }),
    next_timer_at: nextTimerAtSchema,
  })
  .meta({ id: 'TestClock', description: 'The test environment clock after an advance.' });

/**
 * The `test_clock` object `GET /v1/test_helpers/clock` answers with: the account's test
 * clock now and its next timer.
 *
 * @example
 * ```ts
 * const clock = testClockStateSchema.parse(await response.json());
 * if (clock.next_timer_at) console.log(`next timer in ${Date.parse(clock.next_timer_at) - Date.parse(clock.now)} ms`);
 * ```
 */
export const testClockStateSchema = z
  .object({
    object: z.literal('test_clock'),
    now: timestampSchema.meta({ description: 'The account’s test clock.' }),
    next_timer_at: nextTimerAtSchema,
  })
  .meta({ id: 'TestClockState', description: 'The account’s test clock and its next timer.' });
