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
    tag: 'Evidence',
    summary: 'Export signed evidence of a run',
    description:
      'The evidence bundle of the run, sealed in a DSSE envelope signed with Ed25519; verify it offline with `programrun verify` and GET /v1/evidence-keys. Needs a request-access lead linked to the run’s session.',
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

const listEvidenceKeys = defineRoute(
  {
    method: 'GET',
    path: '/v1/evidence-keys',
    operationId: 'listEvidenceKeys',
    tag: 'Evidence',
    summary: 'Public evidence keys (JWKS)',
    description:
      'Every key evidence is signed with, active and retired. Public: anyone holding evidence can fetch them without credentials.',
    // Anyone holding evidence must be able to fetch the keys, without credentials.
    public: true,
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
    errors: ['evidence_keys_missing'],
  },
  {
    answer: (_input, { engine }) =>
      Promise.resolve(
        jsonResponse(200, engine.evidenceKeys(), {
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
