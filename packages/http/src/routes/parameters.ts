import { SQL_INTEGER_MAX, textProblem, UNSTORABLE_MESSAGES } from '@programrun/engine';
import { z } from 'zod';
import { runStatusSchema } from '../schemas/program-run.js';

/** An integer in canonical decimal: no sign but `-`, no leading zero, space, exponent or hex. */
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * Query text as a number when it is a canonical decimal integer; anything else (`1e2`,
 * `0x10`, `+5`, ` 5`, `05`, blank) stays text, which the integer schema refuses.
 */
const numberOf = (value: unknown): unknown =>
  typeof value === 'string' && CANONICAL_INTEGER.test(value) ? Number(value) : value;

/** The longest path or query text parameter. */
const MAX_TEXT_PARAMETER = 255;

/**
 * A text path or query parameter: at most 255 characters (or `max`), without U+0000 or an
 * unpaired surrogate (no store could look such a value up alike).
 */
export function textParameter(max = MAX_TEXT_PARAMETER) {
  return z
    .string()
    .max(max, { error: `must be at most ${max} characters` })
    .superRefine((value, context) => {
      const problem = textProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: UNSTORABLE_MESSAGES[problem] });
    });
}

/** A {@link textParameter} that must not be empty: a filter on nothing names no run. */
const nonEmptyText = (max?: number) => textParameter(max).min(1, { error: 'must not be empty' });

/** The longest `source_path` a run may have, so the longest text `q` may look for. */
const MAX_SEARCH_TEXT = 2048;

/**
 * An integer query parameter from `min` to `max` with a default: `must be an integer from
 * 1 to 100` (or `a non-negative integer` without a maximum) when it is anything else.
 */
export function integerParameter(range: {
  readonly min: number;
  readonly max?: number;
  readonly default: number;
}) {
  const error =
    range.max === undefined
      ? 'must be a non-negative integer'
      : `must be an integer from ${range.min} to ${range.max}`;
  const bounded = z.int({ error }).min(range.min, { error });
  return z.preprocess(
    numberOf,
    (range.max === undefined ? bounded : bounded.max(range.max, { error })).default(range.default),
  );
}

/**
 * `{id}` of `/v1/program-runs/{id}/…`.
 */
export const runIdParameter = textParameter().meta({
  param: { id: 'RunId', description: 'The run id (`prun_…`).' },
  examples: ['prun_4f1c2d3e4f5a6b7c8d9e0f1a'],
});

/**
 * `{step}` of `/v1/program-runs/{id}/handoffs/{step}`.
 */
export const stepParameter = textParameter().meta({
  param: { id: 'HandoffStep', description: 'The handoff step the partner answers.' },
  examples: ['transfer_to_wallet'],
});

/**
 * `{id}` of `/v1/scenarios/{id}`.
 */
export const scenarioIdParameter = textParameter().meta({
  param: { id: 'ScenarioId', description: 'The scenario id, `<name>@v<N>`.' },
  examples: ['wallet-delivery@v1'],
});

/**
 * `{id}` of `/v1/scenarios/{id}/versions`: a scenario name, or an id whose name counts.
 */
export const scenarioNameOrIdParameter = textParameter().meta({
  param: {
    id: 'ScenarioNameOrId',
    description: 'A scenario name (`bank-payout`) or any of its ids (`bank-payout@v1`).',
  },
  examples: ['bank-payout'],
});

const timeFilter = (description: string) =>
  z.iso
    .datetime({
      offset: true,
      error: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-03-02T09:00:00Z',
    })
    .optional()
    .meta({ param: { description }, examples: ['2026-03-01T00:00:00Z'] });

/**
 * Query of `GET /v1/program-runs`.
 */
export const listRunsQuery = z.object({
  limit: integerParameter({ min: 1, max: 100, default: 10 }).meta({
    param: { description: 'Page size.' },
  }),
  starting_after: textParameter()
    .optional()
    .meta({ param: { description: 'A run id: list the runs after it (the next page).' } }),
  scenario_id: textParameter()
    .optional()
    .meta({
      param: { description: 'Only runs of this scenario.' },
      examples: ['wallet-delivery@v1'],
    }),
  // `param` metadata on a $ref'd enum would leak into its schema; a description does not.
  status: runStatusSchema.optional().meta({ description: 'Only runs with this status.' }),
  'created[gte]': timeFilter('Only runs created at or after this ISO 8601 time.'),
  'created[lt]': timeFilter('Only runs created before this ISO 8601 time.'),
  stage: nonEmptyText()
    .optional()
    .meta({
      param: { description: 'Only runs whose current stage (`stage`) is this stage id.' },
      examples: ['release'],
    }),
  awaiting: z.enum(['approval', 'handoff', 'timer']).optional().meta({
    description:
      'Only runs waiting on this kind of step (`awaiting.kind`): `approval` lists every pending approval, policy reviews included.',
  }),
  q: nonEmptyText(MAX_SEARCH_TEXT)
    .optional()
    .meta({
      param: {
        description:
          'Only runs this exact text names: the run id, the `session_id`, the `Idempotency-Key` that created the run, or the `source_path`. No prefixes, no case folding.',
      },
      examples: ['sess_7Yq2'],
    }),
});

/**
 * Query of `GET /v1/program-runs/{id}/events`.
 */
export const listEventsQuery = z.object({
  // A sequence is a SQL integer: beyond it no record can exist.
  after_sequence: integerParameter({ min: 0, max: SQL_INTEGER_MAX, default: 0 }).meta({
    param: { description: 'List the records after this sequence number.' },
  }),
  limit: integerParameter({ min: 1, max: 1000, default: 100 }).meta({
    param: { description: 'Page size.' },
  }),
});

/**
 * `{id}` of `/v1/webhook-endpoints/{id}`.
 */
export const endpointIdParameter = textParameter().meta({
  param: { id: 'WebhookEndpointId', description: 'The endpoint id (`we_…`).' },
  examples: ['we_4f1c2d3e4f5a6b7c8d9e0f1a'],
});

/**
 * `{id}` of `/v1/events/{id}`.
 */
export const eventIdParameter = textParameter().meta({
  param: { id: 'EventId', description: 'The event id (`evt_…`).' },
  examples: ['evt_3f2a9c4e8b1d7f6a0c5e2b9d4a7f1c3e'],
});

/**
 * Query of `GET /v1/events`.
 */
export const accountEventsQuery = z.object({
  limit: integerParameter({ min: 1, max: 100, default: 10 }).meta({
    param: { description: 'Page size.' },
  }),
  starting_after: textParameter()
    .optional()
    .meta({ param: { description: 'An event id: list the events after it (the next page).' } }),
  type: textParameter()
    .optional()
    .meta({
      param: { description: 'Only events of this type.' },
      examples: ['program_run.completed'],
    }),
  run: textParameter()
    .optional()
    .meta({ param: { description: 'Only events of this run (`prun_…`).' } }),
  delivery_status: z
    .enum(['none', 'pending', 'delivered', 'failed'])
    .optional()
    .meta({ description: 'Only events whose deliveries stand so.' }),
});
