import { EVIDENCE_PAYLOAD_TYPE } from '@programrun/evidence';
import { jsonResponse } from '../json-response.js';
import { readJsonBody } from '../request-body.js';
import { accessRequestBodySchema, parseBody } from '../request-schemas.js';
import type { Route } from '../router.js';
import { answerErrors } from './answer-errors.js';
import { idempotentRoute } from './idempotent.js';

/** Request-access leads, evidence export and the public evidence keys. */
export const evidenceRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/access-requests',
    handle: async (context) => {
      const { request, principal, engine, maxBodyBytes } = context;
      const body = await readJsonBody(request, { maxBytes: maxBodyBytes });
      return idempotentRoute(context, body, { required: false }, () =>
        answerErrors(context, async () => {
          const parsed = parseBody(accessRequestBodySchema, body);
          const { accessRequest, created } = await engine.createAccessRequest(principal, parsed);
          return jsonResponse(created ? 201 : 200, accessRequest);
        }),
      );
    },
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
