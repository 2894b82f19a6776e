import { describe, expect, it } from 'vitest';
import type { EvidenceBundle } from '../src/bundle/evidence-bundle.js';
import { sealEvidence } from '../src/bundle/seal-evidence.js';
import { verificationReport } from '../src/bundle/verification-report.js';
import { verifyEvidence, type EvidenceVerification } from '../src/bundle/verify-evidence.js';
import { canonicalDigest } from '../src/digest.js';
import { generateEd25519Jwk } from '../src/keys/jwk.js';
import { createKeySet } from '../src/keys/key-set.js';
import { sampleBundle } from './support/sample-bundle.js';

const keys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
const kid = keys.signer.kid;
const scenarioDigest = canonicalDigest({ scenario: 'wallet' });

const bundleOf = (run: Partial<EvidenceBundle['run']> = {}): EvidenceBundle =>
  sampleBundle({
    kid,
    runId: 'prun_report',
    records: 2,
    run: {
      scenario_digest: scenarioDigest,
      inputs_digest: canonicalDigest({ amount: '125.00' }),
      inputs: { amount: '125.00' },
      session_id: 'sess_1',
      updated_at: '2026-01-01T00:01:15.000Z',
      completed_at: '2026-01-01T00:01:15.000Z',
      ...run,
    },
    bundle: {
      generated_at: '2026-01-01T00:02:00.000Z',
      parties: [
        {
          id: 'custodian',
          name: 'Demo asset custodian',
          role: 'custody',
          kind: 'partner',
          status: 'simulated',
          steps: [],
        },
      ],
      stages: [
        {
          id: 'intake',
          title: 'Intake',
          status: 'completed',
          started_at: '2026-01-01T00:00:00.000Z',
          completed_at: '2026-01-01T00:00:20.000Z',
        },
        {
          id: 'delivery',
          title: 'Delivery',
          status: 'pending',
          started_at: null,
          completed_at: null,
        },
      ],
    },
  });

const sealed = (bundle: EvidenceBundle): string =>
  JSON.stringify(sealEvidence(bundle, keys.signer));

describe('verificationReport', () => {
  it('prints every check, the run summary and "Evidence verified." for a verified bundle', () => {
    const result = verifyEvidence(sealed(bundleOf()), keys.publicJwks(), {
      expect: { runId: 'prun_report', environment: 'test' },
    });
    const report = verificationReport(result);
    const head = bundleOf().lifecycle.chain_head!;
    expect(report.ok).toBe(true);
    expect(report.lines).toEqual([
      ...result.checks.map((check) => `✓ ${check.name.padEnd(10)} ${check.detail}`),
      '',
      'Run       prun_report (test)',
      `Scenario  wallet-delivery@v1  ${scenarioDigest}`,
      'Status    completed',
      'Created   2026-01-01T00:00:00.000Z   completed 2026-01-01T00:01:15.000Z',
      '',
      'Parties',
      '  custodian                custody          Demo asset custodian (simulated)',
      '',
      'Stages',
      '  intake                   completed  2026-01-01T00:00:00.000Z → 2026-01-01T00:00:20.000Z',
      '  delivery                 pending    — → —',
      '',
      'Evidence verified.',
    ]);
    expect(report.lines.slice(0, 8)).toEqual([
      '✓ envelope   DSSE v1, 1 signature(s), application/vnd.programrun.evidence.v1+json',
      expect.stringMatching(/^✓ payload {4}\d+ bytes of canonical JSON$/),
      '✓ statement  in-toto Statement v1 for prun_report',
      `✓ key        Ed25519 key ${kid}`,
      `✓ signature  signed by ${kid}`,
      `✓ chain      2 records, contiguous, every hash recomputed, head ${head}`,
      `✓ subject    program_run/prun_report at sha256 ${head.slice(7, 19)}…`,
      '✓ expected   run prun_report, environment test',
    ]);
  });

  it('names the outcome reason and step of a run that ended otherwise', () => {
    const bundle = bundleOf({
      status: 'faulted',
      outcome: { reason: 'handoff_failed', step: 'custody_transfer' },
      completed_at: null,
    });
    const report = verificationReport(verifyEvidence(sealed(bundle), keys.publicJwks()));
    expect(report.lines).toContain('Status    faulted — handoff_failed at custody_transfer');
    expect(report.lines).toContain('Created   2026-01-01T00:00:00.000Z   completed —');
  });

  it('prints only the first broken link, and nothing read from the bundle, on failure', () => {
    const result = verifyEvidence(sealed(bundleOf()), keys.publicJwks(), {
      expect: { runId: 'prun_other' },
    });
    expect(verificationReport(result)).toEqual({
      ok: false,
      lines: ['verification failed at expected: run prun_report, expected prun_other'],
    });
    expect(verificationReport(verifyEvidence('{', keys.publicJwks())).lines).toEqual([
      expect.stringMatching(/^verification failed at envelope: /),
    ]);
    expect(verificationReport(verifyEvidence(sealed(bundleOf()), { keys: [] }))).toEqual({
      ok: false,
      lines: [`verification failed at key: no key ${kid} in the JWKS`],
    });
  });

  it('folds a failure detail spanning lines onto one line', () => {
    const result: EvidenceVerification = {
      ok: false,
      checks: [{ name: 'payload', ok: false, detail: 'first\n   second\nthird' }],
      failure: { name: 'payload', ok: false, detail: 'first\n   second\nthird' },
      bundle: null,
    };
    expect(verificationReport(result).lines).toEqual([
      'verification failed at payload: first second third',
    ]);
    expect(
      verificationReport({ ok: false, checks: [], failure: null, bundle: null }).lines,
    ).toEqual(['verification failed at an early check: unreadable']);
  });
});
