import { z } from 'zod';
import { jsonObjectSchema, prefixedString, sha256DigestSchema, timestampSchema } from './common.js';

/**
 * The run an event is about (engine `WebhookEventRun`): enough to route it without
 * fetching the run.
 */
export const webhookEventRunSchema = z
  .object({
    id: prefixedString('prun_').meta({ description: 'The run.' }),
    scenario_id: z
      .string()
      .meta({ description: 'Its scenario and version.', examples: ['wallet-delivery@v1'] }),
    scenario_digest: sha256DigestSchema.meta({ description: "Digest of the scenario's text." }),
  })
  .meta({ id: 'WebhookEventRun', description: 'The run an event is about.' });

/**
 * One event (engine `WebhookEvent`) as webhooks deliver it and `GET /v1/events` lists it:
 * a view of one lifecycle record, or of an account-level fact (`webhook_endpoint.*`).
 * `data` is open here; docs/reference/events.md and webhook-event.schema.json give its
 * shape per `type`.
 */
export const webhookEventSchema = z
  .object({
    id: prefixedString('evt_').meta({
      description:
        'Deterministic: for run events `evt_` and 32 hex digits of sha-256 over `<run id>:<sequence>` (the lifecycle record id). Also the `webhook-id` header: deduplicate on it.',
      examples: ['evt_3f2a9c4e8b1d7f6a0c5e2b9d4a7f1c3e'],
    }),
    object: z.literal('event'),
    type: z.string().meta({
      description:
        '`program_run.<fact>` or `webhook_endpoint.disabled` (see docs/reference/events.md). New types may be added: ignore types you do not handle.',
      examples: ['program_run.handoff.requested'],
    }),
    sequence: z.int().min(1).nullable().meta({
      description:
        "1-based position in the run's history (order a run's events by it); null for account-level events.",
    }),
    created: timestampSchema.meta({
      description: "Time of the record on the run's environment clock (the test clock in test).",
    }),
    livemode: z.boolean().meta({ description: 'True for the live environment, false for test.' }),
    run: webhookEventRunSchema
      .nullable()
      .meta({ description: 'The run; null for account-level events.' }),
    stage: z.string().nullable().meta({ description: 'The stage it happened in, if any.' }),
    step: z.string().nullable().meta({ description: 'The step it happened at, if any.' }),
    data: jsonObjectSchema.meta({
      description: "Type-specific facts: the lifecycle record's `data` (shape per `type`).",
    }),
    record_hash: sha256DigestSchema.nullable().meta({
      description:
        "The lifecycle record's hash, which chains into the run's evidence; null for account-level events.",
    }),
  })
  .meta({
    id: 'WebhookEvent',
    description:
      'An event: a view of one lifecycle record (or an account-level fact). Webhooks deliver its RFC 8785 canonical JSON, identical on every redelivery.',
  });
