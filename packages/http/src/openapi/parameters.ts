import { z } from 'zod';
import { runStatusSchema } from '../schemas/program-run.js';

/**
 * `{id}` of `/v1/program-runs/{id}/…`.
 *
 * @example
 * ```ts
 * requestParams: { path: z.object({ id: runIdParameter }) }
 * ```
 */
export const runIdParameter = z.string().meta({
  param: { id: 'RunId', description: 'The run id (`prun_…`).' },
  examples: ['prun_4f1c2d3e4f5a6b7c8d9e0f1a'],
});

/**
 * `{step}` of `/v1/program-runs/{id}/handoffs/{step}`.
 *
 * @example
 * ```ts
 * requestParams: { path: z.object({ id: runIdParameter, step: stepParameter }) }
 * ```
 */
export const stepParameter = z.string().meta({
  param: { id: 'HandoffStep', description: 'The handoff step the partner answers.' },
  examples: ['transfer_to_wallet'],
});

/**
 * `{id}` of `/v1/scenarios/{id}`.
 *
 * @example
 * ```ts
 * requestParams: { path: z.object({ id: scenarioIdParameter }) }
 * ```
 */
export const scenarioIdParameter = z.string().meta({
  param: { id: 'ScenarioId', description: 'The scenario id, `<name>@v<N>`.' },
  examples: ['wallet-delivery@v1'],
});

const timeFilter = (description: string) =>
  z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ param: { description }, examples: ['2026-03-01T00:00:00Z'] });

/**
 * Query of `GET /v1/program-runs` (read by `listQuery` in routes/program-runs.ts).
 *
 * @example
 * ```ts
 * requestParams: { query: listRunsQuery }
 * ```
 */
export const listRunsQuery = z.object({
  limit: z
    .int()
    .min(1)
    .max(100)
    .default(10)
    .meta({ param: { description: 'Page size.' } }),
  starting_after: z
    .string()
    .optional()
    .meta({ param: { description: 'A run id: list the runs after it (the next page).' } }),
  scenario_id: z
    .string()
    .optional()
    .meta({
      param: { description: 'Only runs of this scenario.' },
      examples: ['wallet-delivery@v1'],
    }),
  // `param` metadata on a $ref'd enum would leak into its schema; a description does not.
  status: runStatusSchema.optional().meta({ description: 'Only runs with this status.' }),
  'created[gte]': timeFilter('Only runs created at or after this ISO 8601 time.'),
  'created[lt]': timeFilter('Only runs created before this ISO 8601 time.'),
});

/**
 * Query of `GET /v1/program-runs/{id}/events`.
 *
 * @example
 * ```ts
 * requestParams: { path: z.object({ id: runIdParameter }), query: listEventsQuery }
 * ```
 */
export const listEventsQuery = z.object({
  after_sequence: z
    .int()
    .min(0)
    .default(0)
    .meta({ param: { description: 'List the records after this sequence number.' } }),
  limit: z
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .meta({ param: { description: 'Page size.' } }),
});

/**
 * `{id}` of `/v1/webhook-endpoints/{id}`.
 *
 * @example
 * ```ts
 * requestParams: { path: z.object({ id: endpointIdParameter }) }
 * ```
 */
export const endpointIdParameter = z.string().meta({
  param: { id: 'WebhookEndpointId', description: 'The endpoint id (`we_…`).' },
  examples: ['we_4f1c2d3e4f5a6b7c8d9e0f1a'],
});

/**
 * `{id}` of `/v1/events/{id}`.
 *
 * @example
 * ```ts
 * requestParams: { path: z.object({ id: eventIdParameter }) }
 * ```
 */
export const eventIdParameter = z.string().meta({
  param: { id: 'EventId', description: 'The event id (`evt_…`).' },
  examples: ['evt_3f2a9c4e8b1d7f6a0c5e2b9d4a7f1c3e'],
});

/**
 * Query of `GET /v1/events`.
 *
 * @example
 * ```ts
 * requestParams: { query: accountEventsQuery }
 * ```
 */
export const accountEventsQuery = z.object({
  limit: z
    .int()
    .min(1)
    .max(100)
    .default(10)
    .meta({ param: { description: 'Page size.' } }),
  starting_after: z
    .string()
    .optional()
    .meta({ param: { description: 'An event id: list the events after it (the next page).' } }),
  type: z
    .string()
    .optional()
    .meta({
      param: { description: 'Only events of this type.' },
      examples: ['program_run.completed'],
    }),
  run: z
    .string()
    .optional()
    .meta({ param: { description: 'Only events of this run (`prun_…`).' } }),
  delivery_status: z
    .enum(['none', 'pending', 'delivered', 'failed'])
    .optional()
    .meta({ description: 'Only events whose deliveries stand so.' }),
});
