import { describe, expect, it } from 'vitest';
import {
  EVIDENCE_BUNDLE_SCHEMA,
  canonicalDigest,
  createKeySet,
  generateEd25519Jwk,
  linkRecord,
  sealEvidence,
  utf8,
  verificationReport,
  verifyEvidence,
  type EvidenceBundle,
  type EvidenceRecord,
} from '@programrun/evidence';
import { ApiError } from '../app/api/api-error.js';
import { readJwks, verifyEvidenceBytes } from '../app/features/evidence/verify-bytes.js';

const keys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
const jwks = keys.publicJwks();

function bundleOf(runId: string): EvidenceBundle {
  const record = linkRecord<EvidenceRecord>(
    {
      id: 'evt_1',
      run_id: runId,
      sequence: 1,
      type: 'program_run.created',
      stage: 'intake',
      step: null,
      created: '2026-01-01T00:00:00.000Z',
      data: { amount: '125.00' },
    },
    null,
  );
  return {
    schema: EVIDENCE_BUNDLE_SCHEMA,
    generated_at: '2026-01-01T00:00:00.000Z',
    signing: { kid: keys.signer.kid, algorithm: 'Ed25519' },
    run: {
      id: runId,
      livemode: false,
      environment: 'test',
      scenario_id: 'wallet-delivery@v1',
      scenario_digest: canonicalDigest({ scenario: 'wallet' }),
      family: 'wallet_delivery',
      asset_track: 'public_demo',
      status: 'completed',
      stage: 'delivery',
      outcome: null,
      inputs_digest: canonicalDigest({ amount: '125.00' }),
      inputs: { amount: '125.00' },
      session_id: 'sess_console',
      source_path: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      completed_at: '2026-01-01T00:00:00.000Z',
    },
    parties: [],
    stages: [],
    route_selections: [],
    delivery_objects: [],
    recorded_facts: [],
    approvals: [],
    handoffs: [],
    policy: {},
    lifecycle: { records: [record], length: 1, chain_head: record.hash },
  };
}

// Pretty-printed, as a server may send it: the bytes must be kept, not re-serialised.
const envelopeText = JSON.stringify(sealEvidence(bundleOf('prun_console'), keys.signer), null, 2);
const target = { id: 'prun_console', environment: 'test' } as const;

describe('verifying exported evidence in the console', () => {
  it('prints exactly what `programrun verify --run <id> --env <environment>` prints', () => {
    const report = verifyEvidenceBytes(utf8(envelopeText), jwks, target);
    const expected = verificationReport(
      verifyEvidence(envelopeText, jwks, {
        expect: { runId: 'prun_console', environment: 'test' },
      }),
    );
    expect(report).toEqual(expected);
    expect(report.ok).toBe(true);
    expect(report.lines).toContain('✓ expected   run prun_console, environment test');
    expect(report.lines.at(-1)).toBe('Evidence verified.');
  });

  it('fails a valid bundle of another run or environment, in one line', () => {
    expect(
      verifyEvidenceBytes(utf8(envelopeText), jwks, { id: 'prun_other', environment: 'test' }),
    ).toEqual({
      ok: false,
      lines: ['verification failed at expected: run prun_console, expected prun_other'],
    });
    expect(
      verifyEvidenceBytes(utf8(envelopeText), jwks, { id: 'prun_console', environment: 'live' })
        .lines,
    ).toEqual(['verification failed at expected: environment test, expected live']);
  });

  it('keeps a byte order mark, as the CLI reading the file does, and refuses it', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(envelopeText)]);
    const report = verifyEvidenceBytes(withBom, jwks, target);
    expect(report.ok).toBe(false);
    expect(report.lines[0]).toMatch(/^verification failed at envelope: /);
  });

  it('reads only a JWKS as the keys, as the CLI does', () => {
    expect(readJwks(JSON.stringify(jwks))).toEqual(jwks);
    for (const text of ['{"keys": 1}', '[]', 'null', '{', '{"keys": [], "keys": []}']) {
      expect(() => readJwks(text)).toThrow(ApiError);
      expect(() => readJwks(text)).toThrow('GET /v1/evidence-keys did not answer a JWKS.');
    }
  });
});
