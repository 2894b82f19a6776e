import { jsonResponse } from '../json-response.js';
import {
  createWebhookEndpointBodySchema,
  parseBody,
  rotateSecretBodySchema,
  updateWebhookEndpointBodySchema,
} from '../request-schemas.js';
import type { Route } from '../router.js';
import { postRoute } from './post-route.js';

/** `/v1/webhook-endpoints`: register, list, read, change, rotate the secret of, delete. */
export const webhookEndpointRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/webhook-endpoints',
    handle: postRoute(
      { keyRequired: true, parse: (body) => parseBody(createWebhookEndpointBodySchema, body) },
      async (uow, input) => jsonResponse(201, await uow.webhooks.createEndpoint(uow.scope, input)),
    ),
  },
  {
    method: 'GET',
    path: '/v1/webhook-endpoints',
    handle: async ({ engine, principal }) =>
      jsonResponse(200, {
        object: 'list',
        url: '/v1/webhook-endpoints',
        data: await engine.webhooks.listEndpoints(principal),
        has_more: false,
      }),
  },
  {
    method: 'GET',
    path: '/v1/webhook-endpoints/:id',
    handle: async ({ engine, principal, params }) =>
      jsonResponse(200, await engine.webhooks.getEndpoint(principal, params.id!)),
  },
  {
    method: 'POST',
    path: '/v1/webhook-endpoints/:id',
    handle: postRoute(
      { keyRequired: false, parse: (body) => parseBody(updateWebhookEndpointBodySchema, body) },
      async (uow, input, { params }) =>
        jsonResponse(200, await uow.webhooks.updateEndpoint(uow.scope, params.id!, input)),
    ),
  },
  {
    method: 'POST',
    path: '/v1/webhook-endpoints/:id/rotate-secret',
    handle: postRoute(
      { keyRequired: false, parse: (body) => parseBody(rotateSecretBodySchema, body) },
      async (uow, input, { params }) =>
        jsonResponse(200, await uow.webhooks.rotateSecret(uow.scope, params.id!, input)),
    ),
  },
  {
    method: 'DELETE',
    path: '/v1/webhook-endpoints/:id',
    handle: async ({ engine, principal, params }) =>
      jsonResponse(200, {
        ...(await engine.webhooks.deleteEndpoint(principal, params.id!)),
        deleted: true,
      }),
  },
];
