import { z } from 'zod';
import { jsonObjectSchema, listSchema, sha256DigestSchema, timestampSchema } from './common.js';

/**
 * One lifecycle record (engine `LifecycleRecord`): hash-chained, one per fact of a run.
 *
 * @example
 * ```ts
 * lifecycleRecordSchema.parse(page.data[0]).sequence; // 1
 * ```
 */
export const lifecycleRecordSchema = z
  .object({
    id: z
      .string()
      .regex(/^evt_[0-9a-f]{32}$/)
      .meta({ description: '`evt_` and 32 hex digits of sha-256 over `<run id>:<sequence>`.' }),
    run_id: z.string(),
    sequence: z.int().min(1).meta({ description: '1-based, contiguous per run.' }),
    type: z.string().meta({
      description:
        'A lifecycle record type, `program_run.<fact>` (see docs/reference/lifecycle-events.md).',
      examples: ['program_run.handoff.requested'],
    }),
    stage: z.string().nullable(),
    step: z.string().nullable(),
    created: timestampSchema,
    data: jsonObjectSchema,
    prev: sha256DigestSchema
      .nullable()
      .meta({ description: '`hash` of the previous record; null for the first.' }),
    hash: sha256DigestSchema.meta({
      description: 'sha-256 of the RFC 8785 canonical JSON of the record without `hash`.',
    }),
  })
  .meta({ id: 'LifecycleRecord', description: 'One hash-chained lifecycle record of a run.' });

/**
 * `GET /v1/program-runs/{id}/events`: records in sequence order.
 *
 * @example
 * ```ts
 * lifecycleRecordListSchema.parse(page).has_more;
 * ```
 */
export const lifecycleRecordListSchema = listSchema(
  lifecycleRecordSchema,
  z.string().regex(/^\/v1\/program-runs\/[^/]+\/events$/),
).meta({ id: 'LifecycleRecordList', description: 'Lifecycle records of a run in sequence order.' });
