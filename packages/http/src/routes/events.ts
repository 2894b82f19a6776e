import { z } from 'zod';
import { jsonResponse } from '../json-response.js';
import { redeliverBodySchema } from '../request-schemas.js';
import { eventListSchema, eventRecordSchema } from '../schemas/event-record.js';
import { webhookDeliveryListSchema } from '../schemas/webhook-endpoint.js';
import type { Route } from '../router.js';
import { defineRoute } from './define-route.js';
import { accountEventsQuery, eventIdParameter } from './parameters.js';
import { presentOnly } from './present-only.js';

const eventPath = z.object({ id: eventIdParameter });

const listEvents = defineRoute(
  {
    method: 'GET',
    path: '/v1/events',
    operationId: 'listEvents',
    scope: 'runs:read',
    tag: 'Events',
    summary: 'List events',
    description:
      'Events of the key’s account and environment, newest first (one run’s in descending `sequence`), with where their deliveries stand. Filter by type, run or delivery status.',
    query: accountEventsQuery,
    responses: [{ status: 200, description: 'A page of events.', schema: eventListSchema }],
    errors: ['invalid_query'],
  },
  {
    answer: async ({ query: { run, ...filters } }, { engine, principal }) =>
      jsonResponse(200, {
        object: 'list',
        url: '/v1/events',
        ...(await engine.webhooks.listEvents(principal, presentOnly({ ...filters, run_id: run }))),
      }),
  },
);

const getEvent = defineRoute(
  {
    method: 'GET',
    path: '/v1/events/:id',
    operationId: 'getEvent',
    scope: 'runs:read',
    tag: 'Events',
    summary: 'Read an event',
    description: 'The event exactly as webhooks deliver it, with its delivery status.',
    params: eventPath,
    responses: [{ status: 200, description: 'The event.', schema: eventRecordSchema }],
    errors: ['event_not_found'],
  },
  {
    answer: async ({ params }, { engine, principal }) =>
      jsonResponse(200, await engine.webhooks.getEvent(principal, params.id)),
  },
);

const listEventDeliveries = defineRoute(
  {
    method: 'GET',
    path: '/v1/events/:id/deliveries',
    operationId: 'listEventDeliveries',
    scope: 'webhooks:manage',
    tag: 'Events',
    summary: 'List the deliveries of an event',
    description:
      'One delivery per endpoint, each with every attempt: status code, latency and error.',
    params: eventPath,
    responses: [{ status: 200, description: 'The deliveries.', schema: webhookDeliveryListSchema }],
    errors: ['event_not_found'],
  },
  {
    answer: async ({ params }, { engine, principal }) =>
      jsonResponse(200, {
        object: 'list',
        url: `/v1/events/${params.id}/deliveries`,
        data: await engine.webhooks.listDeliveries(principal, params.id),
        has_more: false,
      }),
  },
);

const redeliverEvent = defineRoute(
  {
    method: 'POST',
    path: '/v1/events/:id/redeliver',
    operationId: 'redeliverEvent',
    scope: 'webhooks:manage',
    tag: 'Events',
    summary: 'Redeliver an event',
    description:
      'Queues the event again, now, with the same `webhook-id` and identical bytes: to one endpoint, or to every enabled endpoint subscribed to its type or that already had it.',
    idempotencyKey: 'optional',
    params: eventPath,
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
  {
    work: async (uow, { params, body }) =>
      jsonResponse(200, {
        object: 'list',
        url: `/v1/events/${params.id}/redeliver`,
        data: await uow.webhooks.redeliver(uow.scope, params.id, body),
        has_more: false,
      }),
  },
);

/** `/v1/events`: the account's events, one event, its deliveries, and redelivery. */
export const eventRoutes: readonly Route[] = [
  listEvents,
  getEvent,
  listEventDeliveries,
  redeliverEvent,
];
