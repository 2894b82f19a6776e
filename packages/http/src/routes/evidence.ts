import { EVIDENCE_PAYLOAD_TYPE } from '@programrun/evidence';
import { jsonResponse } from '../json-response.js';
import { accessRequestBodySchema, parseBody } from '../request-schemas.js';
import type { Route } from '../router.js';
import { postRoute } from './post-route.js';

/** Request-access leads, evidence export and the public evidence keys. */
export const evidenceRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/access-requests',
    handle: postRoute(
      {
        keyRequired: false,
        allowEmpty: false,
        parse: (body) => parseBody(accessRequestBodySchema, body),
      },
      async (uow, input) => {
        const { accessRequest, created } = await uow.createAccessRequest(input);
        return jsonResponse(created ? 201 : 200, accessRequest);
      },
    ),
  },
  {
    method: 'GET',
    path: '/v1/program-runs/:id/evidence',
    handle: async ({ engine, principal, params }) =>
      jsonResponse(200, await engine.exportEvidence(principal, params.id!), {
        'content-type': EVIDENCE_PAYLOAD_TYPE,
      }),
  },
  {
    method: 'GET',
    path: '/v1/evidence-keys',
    // Public keys: anyone holding evidence must be able to fetch them, without credentials.
    public: true,
    handle: ({ engine }) =>
      Promise.resolve(
        jsonResponse(200, engine.evidenceKeys(), {
          'content-type': 'application/jwk-set+json',
          'cache-control': 'public, max-age=300',
        }),
      ),
  },
];
