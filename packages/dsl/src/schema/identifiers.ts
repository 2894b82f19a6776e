import { z } from 'zod';

/** Step ids that mean "go here" in failure paths, so no step may be called this. */
export const FLOW_KEYWORDS = ['complete', 'fault', 'compensate', 'cancel'] as const;
/** Names the compiled machine uses for its own states. */
export const RESERVED_STATE_NAMES = [
  'start',
  'completed',
  'faulted',
  'cancelled',
  'compensating',
] as const;
const reserved = new Set<string>([...FLOW_KEYWORDS, ...RESERVED_STATE_NAMES]);

/** snake_case identifier used for stages, steps, parties, rules, controls and invariants. */
export const identifierSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]{0,62}$/,
    'must be snake_case: a lowercase letter, then letters, digits or _ (max 63)',
  )
  .refine((value) => !reserved.has(value), {
    message: `is reserved (${[...reserved].join(', ')})`,
  });

/** ISO 8601 duration of fixed length: weeks, days, hours, minutes, seconds (no years or months). */
export const durationSchema = z
  .string()
  .regex(
    /^P(?!$)(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/,
    'must be an ISO 8601 duration such as PT15M, PT2H, P1D or P2W (no years or months)',
  )
  .meta({ examples: ['PT30S', 'PT15M', 'P1D'] });

/**
 * Where a failure path goes: `fault` ends the run faulted, `compensate` runs the saga's
 * compensations in reverse and then faults, `cancel` compensates likewise and ends
 * cancelled (e.g. the payer declined), `complete` ends it completed, or a step id.
 */
export const flowTargetSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,62}$/, 'must be fault, compensate, cancel, complete or a step id')
  .meta({
    description:
      'fault | compensate | cancel | complete | <step id>. fault ends the run faulted; compensate runs the compensations of completed steps in reverse, then faults; cancel compensates likewise and ends cancelled.',
  });

/** A CEL expression, type-checked at load time against the scenario's inputs and context. */
export const expressionSchema = z.string().min(1).meta({
  description:
    'A CEL expression. Variables: inputs, routes, records, handoffs, environment. Money: money("10.00") with + - and comparisons.',
});
