import { z } from 'zod';
import { jsonResponse } from '../json-response.js';
import {
  createWebhookEndpointBodySchema,
  rotateSecretBodySchema,
  updateWebhookEndpointBodySchema,
} from '../request-schemas.js';
import type { Route } from '../router.js';
import {
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '../schemas/webhook-endpoint.js';
import { defineRoute } from './define-route.js';
import { endpointIdParameter } from './parameters.js';

const endpointPath = z.object({ id: endpointIdParameter });

const createEndpoint = defineRoute(
  {
    method: 'POST',
    path: '/v1/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    scope: 'webhooks:manage',
    tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description:
      'Registers a URL to receive events, signed per Standard Webhooks. The answer holds the signing secret (`whsec_…`), shown only here. Live endpoints must be https and may not resolve to private, loopback, link-local or metadata addresses (checked again at every delivery). At most 16 endpoints per account and environment, and 2 on one receiver URL (origin and path).',
    idempotencyKey: 'required',
    body: { schema: createWebhookEndpointBodySchema, required: true },
    responses: [
      {
        status: 201,
        description: 'The new endpoint with its secret.',
        schema: webhookEndpointWithSecretSchema,
      },
    ],
    errors: ['invalid_webhook_endpoint', 'webhook_endpoint_limit', 'webhook_endpoint_url_limit'],
  },
  {
    work: async (uow, { body }) =>
      jsonResponse(201, await uow.webhooks.createEndpoint(uow.scope, body)),
  },
);

const listEndpoints = defineRoute(
  {
    method: 'GET',
    path: '/v1/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    scope: 'webhooks:manage',
    tag: 'Webhooks',
    summary: 'List webhook endpoints',
    description: 'Every endpoint of the key’s account and environment, oldest first (at most 16).',
    responses: [{ status: 200, description: 'The endpoints.', schema: webhookEndpointListSchema }],
    errors: [],
  },
  {
    answer: async (_input, { engine, principal }) =>
      jsonResponse(200, {
        object: 'list',
        url: '/v1/webhook-endpoints',
        data: await engine.webhooks.listEndpoints(principal),
        has_more: false,
      }),
  },
);

const getEndpoint = defineRoute(
  {
    method: 'GET',
    path: '/v1/webhook-endpoints/:id',
    operationId: 'getWebhookEndpoint',
    scope: 'webhooks:manage',
    tag: 'Webhooks',
    summary: 'Read a webhook endpoint',
    description: 'Its status, subscriptions, and which secrets sign now (never the secrets).',
    params: endpointPath,
    responses: [{ status: 200, description: 'The endpoint.', schema: webhookEndpointSchema }],
    errors: ['webhook_endpoint_not_found'],
  },
  {
    answer: async ({ params }, { engine, principal }) =>
      jsonResponse(200, await engine.webhooks.getEndpoint(principal, params.id)),
  },
);

const updateEndpoint = defineRoute(
  {
    method: 'POST',
    path: '/v1/webhook-endpoints/:id',
    operationId: 'updateWebhookEndpoint',
    scope: 'webhooks:manage',
    tag: 'Webhooks',
    summary: 'Change, enable or disable a webhook endpoint',
    description:
      'Changes the URL, subscriptions or description; `status: enabled` re-enables an endpoint that was disabled (its failure history is cleared), `status: disabled` pauses it.',
    idempotencyKey: 'optional',
    params: endpointPath,
    body: { schema: updateWebhookEndpointBodySchema, required: false },
    responses: [{ status: 200, description: 'The endpoint.', schema: webhookEndpointSchema }],
    errors: [
      'invalid_webhook_endpoint',
      'webhook_endpoint_not_found',
      'webhook_endpoint_url_limit',
    ],
  },
  {
    work: async (uow, { params, body }) =>
      jsonResponse(200, await uow.webhooks.updateEndpoint(uow.scope, params.id, body)),
  },
);

const rotateSecret = defineRoute(
  {
    method: 'POST',
    path: '/v1/webhook-endpoints/:id/rotate-secret',
    operationId: 'rotateWebhookSecret',
    scope: 'webhooks:manage',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description:
      'Makes a new secret (shown only here). The previous one keeps signing for `overlap_seconds` (default 24 h): meanwhile every delivery carries both signatures, so receivers switch without dropping events.',
    idempotencyKey: 'optional',
    params: endpointPath,
    body: { schema: rotateSecretBodySchema, required: false },
    responses: [
      {
        status: 200,
        description: 'The endpoint with its new secret.',
        schema: webhookEndpointWithSecretSchema,
      },
    ],
    errors: ['invalid_webhook_endpoint', 'webhook_endpoint_not_found'],
  },
  {
    work: async (uow, { params, body }) =>
      jsonResponse(200, await uow.webhooks.rotateSecret(uow.scope, params.id, body)),
  },
);

const deleteEndpoint = defineRoute(
  {
    method: 'DELETE',
    path: '/v1/webhook-endpoints/:id',
    operationId: 'deleteWebhookEndpoint',
    scope: 'webhooks:manage',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    description: 'Stops delivery to it at once; deliveries still owed to it are cancelled.',
    params: endpointPath,
    responses: [
      {
        status: 200,
        description: 'The deleted endpoint.',
        schema: webhookEndpointSchema
          .extend({ deleted: z.literal(true) })
          .meta({ id: 'DeletedWebhookEndpoint' }),
      },
    ],
    errors: ['webhook_endpoint_not_found'],
  },
  {
    answer: async ({ params }, { engine, principal }) =>
      jsonResponse(200, {
        ...(await engine.webhooks.deleteEndpoint(principal, params.id)),
        deleted: true,
      }),
  },
);

/** `/v1/webhook-endpoints`: register, list, read, change, rotate the secret of, delete. */
export const webhookEndpointRoutes: readonly Route[] = [
  createEndpoint,
  listEndpoints,
  getEndpoint,
  updateEndpoint,
  rotateSecret,
  deleteEndpoint,
];
