import { z } from 'zod';
import { problemSchema } from './problem.js';

const workerStatusSchema = z.enum(['running', 'stopped']);

/**
 * The checks `GET /readyz` reports (`engine.readiness()`), in its 200 and in its 503.
 *
 * @example
 * ```ts
 * readinessChecksSchema.parse((await response.json()).checks).store.status; // 'ok'
 * ```
 */
export const readinessChecksSchema = z
  .object({
    store: z
      .object({
        status: z.enum(['ok', 'unreachable', 'timeout']).meta({
          description:
            '`ok`: the store answered; `unreachable`: it failed; `timeout`: it did not answer within 2 s.',
        }),
      })
      .meta({ description: 'One round trip to the store.' }),
    migrations: z
      .object({
        status: z.enum(['current', 'behind', 'ahead', 'unknown']).meta({
          description:
            '`current`: the schema is at the version this host expects; `behind`: migrations are pending; `ahead`: the database was migrated by newer code; `unknown`: the store did not answer.',
        }),
        schema_version: z.int().min(0).nullable().meta({
          description:
            'The version the database is at; null for stores without schema versions (memory) or when unknown.',
        }),
        expected_version: z.int().min(0).nullable().meta({
          description: 'The version this host reads and writes; null like `schema_version`.',
        }),
      })
      .meta({ description: "The store's schema version." }),
    background: z
      .object({
        status: workerStatusSchema.meta({
          description: '`running` when every registered worker runs (or none is registered).',
        }),
        workers: z.record(z.string(), workerStatusSchema).meta({
          description:
            'Each background worker by name (`scheduler`, `handoff-workers`, `webhook-dispatcher`): `stopped` once its stop began.',
          examples: [{ scheduler: 'running', 'handoff-workers': 'running' }],
        }),
      })
      .meta({ description: 'The background workers of this host.' }),
  })
  .meta({ id: 'ReadinessChecks', description: 'What readiness checked, check by check.' });

/**
 * What `GET /healthz` answers while the process serves requests.
 *
 * @example
 * ```ts
 * healthSchema.parse(await response.json()).status; // 'ok'
 * ```
 */
export const healthSchema = z
  .object({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'The process is alive and answering.' });

/**
 * What `GET /readyz` answers when the host is ready: every check passed.
 *
 * @example
 * ```ts
 * readinessSchema.parse(await response.json()).checks.migrations.status; // 'current'
 * ```
 */
export const readinessSchema = z
  .object({ status: z.literal('ready'), checks: readinessChecksSchema })
  .meta({ id: 'Readiness', description: 'The host is ready to serve.' });

/** The `503 not_ready` problem of `GET /readyz`: a problem document that lists the checks. */
export const notReadyProblemSchema = problemSchema
  .extend({ status: z.literal(503), code: z.literal('not_ready'), checks: readinessChecksSchema })
  .meta({ description: 'A `not_ready` problem document with the checks that were made.' });
