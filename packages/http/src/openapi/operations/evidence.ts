import { z } from 'zod';
import { EVIDENCE_PAYLOAD_TYPE } from '@programrun/evidence';
import { accessRequestBodySchema } from '../../request-schemas.js';
import { accessRequestRecordSchema } from '../../schemas/access-request.js';
import { evidenceEnvelopeSchema, jwksSchema } from '../../schemas/evidence.js';
import type { OperationSpec } from '../operation-spec.js';
import { runIdParameter } from '../parameters.js';

/**
 * The operations of routes/evidence.ts.
 *
 * @example
 * ```ts
 * evidenceOperations.find((operation) => operation.public)?.path; // '/v1/evidence-keys'
 * ```
 */
export const evidenceOperations: readonly OperationSpec[] = [
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
    method: 'GET',
    path: '/v1/program-runs/:id/evidence',
    operationId: 'exportEvidence',
    tag: 'Evidence',
    summary: 'Export signed evidence of a run',
    description:
      'The evidence bundle of the run, sealed in a DSSE envelope signed with Ed25519; verify it offline with `programrun verify` and GET /v1/evidence-keys. Needs a request-access lead linked to the run’s session.',
    parameters: { path: z.object({ id: runIdParameter }) },
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
    method: 'GET',
    path: '/v1/evidence-keys',
    operationId: 'listEvidenceKeys',
    tag: 'Evidence',
    summary: 'Public evidence keys (JWKS)',
    description:
      'Every key evidence is signed with, active and retired. Public: anyone holding evidence can fetch them without credentials.',
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
];
