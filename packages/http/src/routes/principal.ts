import { jsonResponse } from '../json-response.js';
import type { Route } from '../router.js';
import { principalSchema } from '../schemas/principal.js';
import { defineRoute } from './define-route.js';

/**
 * `GET /v1/principal`: the caller as the handler authenticated it (built-in key or the
 * host's `authenticate` hook), for any credential whatever its scopes.
 */
const getPrincipal = defineRoute(
  {
    method: 'GET',
    path: '/v1/principal',
    operationId: 'getPrincipal',
    anyScope: true,
    storeFree: true,
    tag: 'Principal',
    summary: 'Read the authenticated caller',
    description:
      'The account, environment, actor, credential id and scopes of the credential this request was authenticated with (an API key, or the host’s own session through its `authenticate` hook), so a client can show who it acts as and offer only what the scopes allow. Any credential may read it, whatever its scopes. Never the secret.',
    responses: [{ status: 200, description: 'The caller.', schema: principalSchema }],
    errors: [],
  },
  {
    answer: (_input, { principal }) =>
      Promise.resolve(
        jsonResponse(
          200,
          {
            object: 'principal',
            account: principal.account,
            environment: principal.environment,
            livemode: principal.environment === 'live',
            actor: principal.actor,
            credential_id: principal.credentialId,
            scopes: [...principal.scopes],
          },
          { 'cache-control': 'no-store' },
        ),
      ),
  },
);

/** Who the caller is. */
export const principalRoutes: readonly Route[] = [getPrincipal];
