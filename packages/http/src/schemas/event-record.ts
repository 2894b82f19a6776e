import { z } from 'zod';
import { listSchema } from './common.js';
import { webhookEventSchema } from './webhook-event.js';

/**
 * An event as `GET /v1/events` shows it (engine `EventRecord`): the delivered event plus
 * where its deliveries stand.
 */
export const eventRecordSchema = webhookEventSchema
  .extend({
    delivery_status: z.enum(['none', 'pending', 'delivered', 'failed']).meta({
      description:
        '`none`: no endpoint subscribed; `pending`: a delivery is still being tried; `failed`: a delivery gave up and none is pending; `delivered`: every delivery succeeded.',
    }),
    pending_webhooks: z.int().min(0).meta({ description: 'Deliveries still pending.' }),
  })
  .meta({ id: 'EventRecord' });

/**
 * A page of events, newest first.
 */
export const eventListSchema = listSchema(eventRecordSchema, z.literal('/v1/events')).meta({
  id: 'EventList',
});
