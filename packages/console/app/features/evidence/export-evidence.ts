// "Export and verify": the run's signed evidence, exactly the bytes the API sent, and the
// host's public keys, verified in the browser (verify-bytes.ts).
import type { VerificationReport } from '@programrun/evidence';
import { toApiError } from '../../api/api-error.js';
import { api } from '../../api/client.js';
import { readJwks, verifyEvidenceBytes, type EvidenceTarget } from './verify-bytes.js';

/** An exported bundle and what verifying it said. */
export interface ExportedEvidence {
  /** The bundle as the API sent it, byte for byte (what "Download bundle" saves). */
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly report: VerificationReport;
}

/** The run's evidence, exactly as sent; a refusal (no access request yet…) throws ApiError. */
async function fetchEvidenceBytes(runId: string): Promise<Uint8Array<ArrayBuffer>> {
  const response = await api.raw(`/v1/program-runs/${encodeURIComponent(runId)}/evidence`);
  if (!response.ok) throw await toApiError(response);
  return new Uint8Array(await response.arrayBuffer());
}

/** Exports the run's evidence and verifies it against `GET /v1/evidence-keys`. */
export async function exportAndVerify(target: EvidenceTarget): Promise<ExportedEvidence> {
  const [bytes, jwks] = await Promise.all([
    fetchEvidenceBytes(target.id),
    api.text('/v1/evidence-keys').then(readJwks),
  ]);
  return { bytes, report: verifyEvidenceBytes(bytes, jwks, target) };
}
