import { z } from 'zod';
import { EVIDENCE_BUNDLE_SCHEMA, EVIDENCE_PAYLOAD_TYPE } from '@programrun/evidence';

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);

/**
 * `GET /v1/program-runs/{id}/evidence`: a DSSE v1 envelope (evidence `DsseEnvelope`)
 * whose payload is the RFC 8785 JSON of an in-toto Statement v1 holding the bundle.
 *
 * @example
 * ```ts
 * evidenceEnvelopeSchema.parse(envelope).payloadType; // 'application/vnd.programrun.evidence.v1+json'
 * ```
 */
export const evidenceEnvelopeSchema = z
  .object({
    payloadType: z.literal(EVIDENCE_PAYLOAD_TYPE),
    payload: base64.meta({
      description: `base64 of the canonical JSON of an in-toto Statement v1 whose predicate is the evidence bundle (${EVIDENCE_BUNDLE_SCHEMA}).`,
      contentEncoding: 'base64',
      contentMediaType: 'application/vnd.in-toto+json',
    }),
    signatures: z
      .array(
        z.object({
          keyid: z
            .string()
            .exactOptional()
            .meta({ description: 'The `kid` of the signing key in GET /v1/evidence-keys.' }),
          sig: base64.meta({
            description: 'base64 Ed25519 signature over the DSSE pre-authentication encoding.',
          }),
        }),
      )
      .min(1),
  })
  .meta({ id: 'EvidenceEnvelope', description: 'Signed evidence of a run (DSSE v1 envelope).' });

/**
 * One public Ed25519 key (RFC 8037 JWK, evidence `Ed25519PublicJwk`).
 *
 * @example
 * ```ts
 * evidenceKeySchema.parse(jwks.keys[0]).kty; // 'OKP'
 * ```
 */
export const evidenceKeySchema = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/)
      .meta({ description: 'base64url of the 32-byte public key.' }),
    kid: z.string().exactOptional().meta({ description: 'The RFC 7638 thumbprint of the key.' }),
    use: z.literal('sig').exactOptional(),
    alg: z.enum(['EdDSA', 'Ed25519']).exactOptional(),
    environment: z.enum(['test', 'live']).exactOptional().meta({
      description:
        'The one environment whose evidence this key signs; verifiers refuse a bundle of the other environment signed with it. Absent when one key set signs both environments.',
    }),
  })
  .meta({ id: 'EvidenceKey', description: 'A public Ed25519 evidence key as a JWK.' });

/**
 * `GET /v1/evidence-keys`: every evidence key, active and retired, each marked with the
 * environment it signs (evidence `Jwks`).
 *
 * @example
 * ```ts
 * jwksSchema.parse(await (await fetch(`${base}/v1/evidence-keys`)).json()).keys.length;
 * ```
 */
export const jwksSchema = z
  .object({ keys: z.array(evidenceKeySchema) })
  .meta({ id: 'Jwks', description: 'A JSON Web Key Set of the public evidence keys.' });
