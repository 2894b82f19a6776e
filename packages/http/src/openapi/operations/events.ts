import { z } from 'zod';
import { redeliverBodySchema } from '../../request-schemas.js';
import { eventListSchema, eventRecordSchema } from '../../schemas/event-record.js';
import { webhookDeliveryListSchema } from '../../schemas/webhook-endpoint.js';
import type { OperationSpec } from '../operation-spec.js';
import { accountEventsQuery, eventIdParameter } from '../parameters.js';

const eventPath = z.object({ id: eventIdParameter });

/**
 * The operations of routes/events.ts.
 *
 * @example
 * ```ts
 * eventOperations.map((operation) => operation.operationId); // ['listEvents', …]
 * ```
 */
export const eventOperations: readonly OperationSpec[] = [
  {
    method: 'GET',
    path: '/v1/events',
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'List events',
    description:
      'Events of the key’s account and environment, newest first (one run’s in descending `sequence`), with where their deliveries stand. Filter by type, run or delivery status.',
    parameters: { query: accountEventsQuery },
    responses: [{ status: 200, description: 'A page of events.', schema: eventListSchema }],
    errors: ['invalid_query'],
  },
  {
    method: 'GET',
    path: '/v1/events/:id',
    operationId: 'getEvent',
    tag: 'Events',
    summary: 'Read an event',
    description: 'The event exactly as webhooks deliver it, with its delivery status.',
    parameters: { path: eventPath },
    responses: [{ status: 200, description: 'The event.', schema: eventRecordSchema }],
    errors: ['event_not_found'],
  },
  {
    method: 'GET',
    path: '/v1/events/:id/deliveries',
    operationId: 'listEventDeliveries',
    tag: 'Events',
    summary: 'List the deliveries of an event',
    description:
      'One delivery per endpoint, each with every attempt: status code, latency and error.',
    parameters: { path: eventPath },
    responses: [{ status: 200, description: 'The deliveries.', schema: webhookDeliveryListSchema }],
    errors: ['event_not_found'],
  },
  {
    method: 'POST',
    path: '/v1/events/:id/redeliver',
    operationId: 'redeliverEvent',
    tag: 'Events',
    summary: 'Redeliver an event',
    description:
      'Queues the event again, now, with the same `webhook-id` and identical bytes: to one endpoint, or to every enabled endpoint subscribed to its type or that already had it.',
    idempotencyKey: 'optional',
    parameters: { path: eventPath },
    body: { schema: redeliverBodySchema, required: false },
    responses: [
      {
        status: 200,
        description: 'The event’s deliveries, the requeued ones pending.',
        schema: webhookDeliveryListSchema,
      },
    ],
    errors: [
      'event_not_found',
      'webhook_endpoint_not_found',
      'webhook_endpoint_disabled',
      'no_webhook_endpoints',
    ],
  },
];
