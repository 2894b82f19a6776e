import { z } from 'zod';
import { listSchema, prefixedString, timestampSchema } from './common.js';

const endpointFields = {
  object: z.literal('webhook_endpoint'),
  id: prefixedString('we_').meta({ description: 'The endpoint.' }),
  livemode: z.boolean(),
  url: z.string().meta({ examples: ['https://hooks.example.com/programrun'] }),
  description: z.string().nullable(),
  enabled_events: z.array(z.string()).meta({
    description: 'Event types, prefixes such as `program_run.handoff.*`, or `*`.',
  }),
  status: z.enum(['enabled', 'disabled']),
  disabled_reason: z.enum(['gone', 'consistent_failure', 'requested']).nullable().meta({
    description:
      '`gone`: the receiver answered 410; `consistent_failure`: every attempt failed for a whole retry schedule (about 3 days in live); `requested`: disabled through the API.',
  }),
  disabled_at: timestampSchema.nullable(),
  secrets: z
    .array(
      z.object({
        last4: z.string().meta({ description: 'Last four characters, to tell secrets apart.' }),
        created_at: timestampSchema,
        expires_at: timestampSchema
          .nullable()
          .meta({ description: 'End of a rotation overlap; null for the current secret.' }),
      }),
    )
    .meta({ description: 'Secrets that sign deliveries now (never the secrets themselves).' }),
  failing_since: timestampSchema
    .nullable()
    .meta({ description: 'First failed attempt since the last success; null while healthy.' }),
  created_at: timestampSchema,
  updated_at: timestampSchema,
};

/**
 * A webhook endpoint (engine `WebhookEndpointRecord`).
 */
export const webhookEndpointSchema = z
  .strictObject(endpointFields)
  .meta({ id: 'WebhookEndpoint', description: 'A registered webhook endpoint.' });

/**
 * A webhook endpoint with its new signing secret: only in the answer that made it.
 */
export const webhookEndpointWithSecretSchema = z
  .strictObject({
    ...endpointFields,
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
      .meta({
        description:
          'The signing secret (`whsec_` + base64 of 32 random bytes). Shown only here: store it now.',
      }),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });

/**
 * A page of webhook endpoints.
 */
export const webhookEndpointListSchema = listSchema(
  webhookEndpointSchema,
  z.literal('/v1/webhook-endpoints'),
).meta({ id: 'WebhookEndpointList' });

/**
 * One delivery of an event to an endpoint, with every attempt (engine `WebhookDeliveryRecord`).
 */
export const webhookDeliverySchema = z
  .strictObject({
    object: z.literal('webhook_delivery'),
    id: prefixedString('wdl_'),
    event: prefixedString('evt_'),
    endpoint: prefixedString('we_'),
    livemode: z.boolean(),
    status: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
    attempt_count: z.int().min(0),
    next_attempt_at: timestampSchema
      .nullable()
      .meta({ description: "Due time of the next attempt on the environment's clock." }),
    last_error: z.string().nullable(),
    created_at: timestampSchema,
    delivered_at: timestampSchema.nullable(),
    attempts: z.array(
      z.strictObject({
        attempt: z.int().min(1),
        started_at: timestampSchema,
        status: z
          .int()
          .nullable()
          .meta({ description: "The receiver's status; null without an answer." }),
        latency_ms: z.number().min(0),
        error: z
          .strictObject({ code: z.string(), message: z.string() })
          .nullable()
          .meta({ description: '`timeout`, `connection_failed`, `forbidden_address`, … or null.' }),
        response_excerpt: z.string().nullable().meta({ description: 'First KiB of the answer.' }),
      }),
    ),
  })
  .meta({ id: 'WebhookDelivery' });

/**
 * The deliveries of one event.
 */
export const webhookDeliveryListSchema = listSchema(
  webhookDeliverySchema,
  z.string().regex(/^\/v1\/events\/[^/]+\/(deliveries|redeliver)$/),
).meta({ id: 'WebhookDeliveryList' });
