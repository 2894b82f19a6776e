import type { WebhookEventQuery } from '@programrun/engine';
import { jsonResponse } from '../json-response.js';
import { parseBody, redeliverBodySchema } from '../request-schemas.js';
import type { Route } from '../router.js';
import { invalidQuery, pageLimit } from './list-query.js';
import { postRoute } from './post-route.js';

const DELIVERY_STATUSES = new Set(['none', 'pending', 'delivered', 'failed']);

function eventListQuery(url: URL): Partial<WebhookEventQuery> & { limit: number } {
  const params = url.searchParams;
  const limit = pageLimit(params);
  const status = params.get('delivery_status');
  if (status !== null && !DELIVERY_STATUSES.has(status))
    throw invalidQuery('delivery_status', `must be one of ${[...DELIVERY_STATUSES].join(', ')}`);
  const type = params.get('type');
  const run = params.get('run');
  const after = params.get('starting_after');
  return {
    limit,
    ...(type === null ? {} : { type }),
    ...(run === null ? {} : { run_id: run }),
    ...(status === null
      ? {}
      : { delivery_status: status as NonNullable<WebhookEventQuery['delivery_status']> }),
    ...(after === null ? {} : { starting_after: after }),
  };
}

/** `/v1/events`: the account's events, one event, its deliveries, and redelivery. */
export const eventRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/v1/events',
    handle: async ({ engine, principal, url }) =>
      jsonResponse(200, {
        object: 'list',
        url: '/v1/events',
        ...(await engine.webhooks.listEvents(principal, eventListQuery(url))),
      }),
  },
  {
    method: 'GET',
    path: '/v1/events/:id',
    handle: async ({ engine, principal, params }) =>
      jsonResponse(200, await engine.webhooks.getEvent(principal, params.id!)),
  },
  {
    method: 'GET',
    path: '/v1/events/:id/deliveries',
    handle: async ({ engine, principal, params }) =>
      jsonResponse(200, {
        object: 'list',
        url: `/v1/events/${params.id!}/deliveries`,
        data: await engine.webhooks.listDeliveries(principal, params.id!),
        has_more: false,
      }),
  },
  {
    method: 'POST',
    path: '/v1/events/:id/redeliver',
    handle: postRoute(
      { keyRequired: false, parse: (body) => parseBody(redeliverBodySchema, body) },
      async (uow, input, { params }) =>
        jsonResponse(200, {
          object: 'list',
          url: `/v1/events/${params.id!}/redeliver`,
          data: await uow.webhooks.redeliver(uow.scope, params.id!, input),
          has_more: false,
        }),
    ),
  },
];
