// Verifying exported evidence in the browser, with the same checks and the same words as
// `programrun verify --run <id> --env <environment>`. Pure; unit-tested in
// test/features-evidence.test.ts.
import {
  parseStrictJson,
  verificationReport,
  verifyEvidence,
  type Jwks,
  type VerificationReport,
} from '@programrun/evidence';
import { ApiError } from '../../api/api-error.js';

/** What the run the evidence is for must be: its id and environment. */
export interface EvidenceTarget {
  readonly id: string;
  readonly environment: 'test' | 'live';
}

// As `programrun verify` reads a file: UTF-8 with a byte order mark kept (and refused by
// the strict JSON parser), so that both verify the same text.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The JWKS of `GET /v1/evidence-keys`, refusing anything else (as the CLI does). */
export function readJwks(text: string): Jwks {
  let jwks: Partial<Jwks> | null;
  try {
    jwks = parseStrictJson(text) as Partial<Jwks> | null;
  } catch {
    jwks = null;
  }
  if (!Array.isArray(jwks?.keys))
    throw new ApiError(0, 'invalid_jwks', 'GET /v1/evidence-keys did not answer a JWKS.');
  return jwks as Jwks;
}

/** Verifies the bundle's bytes against `jwks`, pinned to the run and its environment. */
export function verifyEvidenceBytes(
  bytes: Uint8Array,
  jwks: Jwks,
  target: EvidenceTarget,
): VerificationReport {
  const result = verifyEvidence(decoder.decode(bytes), jwks, {
    expect: { runId: target.id, environment: target.environment },
  });
  return verificationReport(result);
}
