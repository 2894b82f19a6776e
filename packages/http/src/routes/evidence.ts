import { EVIDENCE_PAYLOAD_TYPE } from '@programrun/evidence';
import { z } from 'zod';
import { jsonResponse } from '../json-response.js';
import { accessRequestBodySchema } from '../request-schemas.js';
import { accessRequestRecordSchema } from '../schemas/access-request.js';
import { evidenceEnvelopeSchema, jwksSchema } from '../schemas/evidence.js';
import type { Route } from '../router.js';
import { defineRoute } from './define-route.js';
import { runIdParameter } from './parameters.js';

const createAccessRequest = defineRoute(
  {
    method: 'POST',
    path: '/v1/access-requests',
    operationId: 'createAccessRequest',
    scope: 'evidence:export',
    tag: 'Evidence',
    summary: 'Request access (link a lead to a session)',
    description:
      'Records a request-access lead for a client session; runs created with that `session_id` can then export their evidence. The same session again answers the first lead.',
    idempotencyKey: 'optional',
    body: { schema: accessRequestBodySchema, required: true },
    responses: [
      { status: 201, description: 'The new lead.', schema: accessRequestRecordSchema },
      {
        status: 200,
        description: 'The lead already linked to this session.',
        schema: accessRequestRecordSchema,
      },
    ],
    errors: [],
  },
  {
    work: async (uow, { body }) => {
      const { accessRequest, created } = await uow.createAccessRequest(body);
      return jsonResponse(created ? 201 : 200, accessRequest);
    },
  },
);

const exportEvidence = defineRoute(
  {
    method: 'GET',
    path: '/v1/program-runs/:id/evidence',
    operationId: 'exportEvidence',
    scope: 'evidence:export',
    tag: 'Evidence',
    summary: 'Export signed evidence of a run',
    description:
      'The evidence bundle of the run, sealed in a DSSE envelope signed with Ed25519 by a key of the run’s environment (test evidence with a test key, live evidence with a live key); verify it offline with `programrun verify` and GET /v1/evidence-keys. Needs a request-access lead linked to the run’s session.',
    params: z.object({ id: runIdParameter }),
    responses: [
      {
        status: 200,
        description: 'The signed envelope.',
        schema: evidenceEnvelopeSchema,
        contentType: EVIDENCE_PAYLOAD_TYPE,
      },
    ],
    errors: ['run_not_found', 'lead_required', 'evidence_keys_missing'],
  },
  {
    answer: async ({ params }, { engine, principal }) =>
      jsonResponse(200, await engine.exportEvidence(principal, params.id), {
        'content-type': EVIDENCE_PAYLOAD_TYPE,
      }),
  },
);

const evidenceKeysQuery = z.object({
  environment: z
    .enum(['test', 'live'])
    .optional()
    .meta({
      param: {
        description:
          'Only the keys that verify this environment’s evidence (e.g. `test` for a JWKS that refuses live evidence).',
      },
      examples: ['live'],
    }),
});

const listEvidenceKeys = defineRoute(
  {
    method: 'GET',
    path: '/v1/evidence-keys',
    operationId: 'listEvidenceKeys',
    tag: 'Evidence',
    summary: 'Public evidence keys (JWKS)',
    description:
      'Every key evidence is signed with, active and retired, each marked with the environment whose evidence it signs (`environment`: `test` or `live`; a test key never verifies live evidence). Public: anyone holding evidence can fetch them without credentials.',
    // Anyone holding evidence must be able to fetch the keys, without credentials.
    public: true,
    query: evidenceKeysQuery,
    responses: [
      {
        status: 200,
        description: 'The key set.',
        schema: jwksSchema,
        contentType: 'application/jwk-set+json',
        headers: {
          'Cache-Control': z
            .literal('public, max-age=300')
            .meta({ description: 'Cacheable for 5 minutes.' }),
        },
      },
    ],
    errors: ['invalid_query', 'evidence_keys_missing'],
  },
  {
    answer: ({ query }, { engine }) =>
      Promise.resolve(
        jsonResponse(200, engine.evidenceKeys(query.environment), {
          'content-type': 'application/jwk-set+json',
          'cache-control': 'public, max-age=300',
        }),
      ),
  },
);

/** Request-access leads, evidence export and the public evidence keys. */
export const evidenceRoutes: readonly Route[] = [
  createAccessRequest,
  exportEvidence,
  listEvidenceKeys,
];
