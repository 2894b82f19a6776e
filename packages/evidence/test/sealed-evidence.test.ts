import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base64 } from '../src/bytes.js';
import type { EvidenceBundle, EvidenceRecord } from '../src/bundle/evidence-bundle.js';
import { EVIDENCE_BUNDLE_SCHEMA, EVIDENCE_PAYLOAD_TYPE } from '../src/bundle/evidence-bundle.js';
import { sealEvidence } from '../src/bundle/seal-evidence.js';
import { verifyEvidence } from '../src/bundle/verify-evidence.js';
import { canonicalDigest } from '../src/digest.js';
import type { DsseEnvelope } from '../src/envelope/dsse.js';
import { linkRecord } from '../src/hash-chain.js';
import { generateEd25519Jwk } from '../src/keys/jwk.js';
import { createKeySet } from '../src/keys/key-set.js';

const keys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);

function records(runId: string, count: number): EvidenceRecord[] {
  const chain: EvidenceRecord[] = [];
  for (let sequence = 1; sequence <= count; sequence += 1) {
    chain.push(
      linkRecord<EvidenceRecord>(
        {
          id: `evt_${sequence}`,
          run_id: runId,
          sequence,
          type: sequence === count ? 'program_run.completed' : 'program_run.stage.started',
          stage: 'intake',
          step: null,
          created: '2026-01-01T00:00:00.000Z',
          data: { n: sequence, amount: '125.00' },
        },
        chain.at(-1)?.hash ?? null,
      ),
    );
  }
  return chain;
}

function bundleOf(history: EvidenceRecord[], kid = keys.signer.kid): EvidenceBundle {
  return {
    schema: EVIDENCE_BUNDLE_SCHEMA,
    generated_at: '2026-01-01T00:00:00.000Z',
    signing: { kid, algorithm: 'Ed25519' },
    run: {
      id: 'prun_test',
      livemode: false,
      environment: 'test',
      scenario_id: 'wallet-delivery@v1',
      scenario_digest: canonicalDigest({ scenario: 'x' }),
      family: 'wallet_delivery',
      asset_track: 'public_demo',
      status: 'completed',
      stage: 'delivery',
      outcome: null,
      inputs_digest: canonicalDigest({ amount: '125.00' }),
      inputs: { amount: '125.00' },
      session_id: 'sess_1',
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
    policy: { decision: 'allow', rules: [], controls: [] },
    lifecycle: {
      records: history,
      length: history.length,
      chain_head: history.at(-1)?.hash ?? null,
    },
  };
}

const sealed = (history: EvidenceRecord[]): DsseEnvelope =>
  sealEvidence(bundleOf(history), keys.signer);
const failedCheck = (envelope: unknown) =>
  verifyEvidence(JSON.stringify(envelope), keys.publicJwks()).failure?.name;

describe('sealed evidence', () => {
  it('verifies, naming every check', () => {
    const result = verifyEvidence(
      JSON.stringify(sealed(records('prun_test', 5))),
      keys.publicJwks(),
    );
    expect(result.ok).toBe(true);
    expect(result.checks.map((check) => check.name)).toEqual([
      'envelope',
      'payload',
      'statement',
      'key',
      'signature',
      'chain',
      'subject',
    ]);
    expect(result.bundle?.run.id).toBe('prun_test');
  });

  it('fails on any single-byte change to the payload or the signature', () => {
    const envelope = sealed(records('prun_test', 4));
    const payload = base64.decode(envelope.payload);
    const signature = base64.decode(envelope.signatures[0]!.sig);
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (inPayload, at, delta) => {
          const bytes = (inPayload ? payload : signature).slice();
          const index = at % bytes.length;
          bytes[index] = (bytes[index]! + delta) % 256;
          const tampered = inPayload
            ? { ...envelope, payload: base64.encode(bytes) }
            : {
                ...envelope,
                signatures: [{ ...envelope.signatures[0]!, sig: base64.encode(bytes) }],
              };
          expect(failedCheck(tampered)).toBeDefined();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('fails at the chain when records are altered, reordered or removed, even if re-signed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }),
        fc.nat(),
        fc.constantFrom('alter', 'swap', 'remove', 'drop_last'),
        (count, pick, change) => {
          const history = records('prun_test', count);
          const head = history.at(-1)!.hash;
          const index = pick % count;
          const tampered = [...history];
          if (change === 'alter')
            tampered[index] = { ...tampered[index]!, data: { n: index + 1, amount: '999.00' } };
          if (change === 'swap')
            [tampered[index], tampered[(index + 1) % count]] = [
              tampered[(index + 1) % count]!,
              tampered[index]!,
            ];
          if (change === 'remove') tampered.splice(index, 1);
          if (change === 'drop_last') tampered.pop();
          // Keep the signed head: the bundle claims the original history.
          const bundle = bundleOf(tampered);
          const resealed = sealEvidence(
            { ...bundle, lifecycle: { ...bundle.lifecycle, chain_head: head } },
            keys.signer,
          );
          expect(failedCheck(resealed)).toBe('chain');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a foreign key, a spoofed kid, a wrong payload type and duplicate keys', () => {
    const envelope = sealed(records('prun_test', 3));
    const other = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
    expect(verifyEvidence(JSON.stringify(envelope), other.publicJwks()).failure?.name).toBe('key');
    const spoofed = { keys: [{ ...other.publicJwks().keys[0]!, kid: keys.signer.kid }] };
    expect(verifyEvidence(JSON.stringify(envelope), spoofed).failure).toMatchObject({
      name: 'key',
    });
    expect(failedCheck({ ...envelope, payloadType: 'application/json' })).toBe('envelope');
    const duplicated = JSON.stringify(envelope).replace(
      '{"payloadType"',
      `{"payloadType":"${EVIDENCE_PAYLOAD_TYPE}","payloadType"`,
    );
    expect(verifyEvidence(duplicated, keys.publicJwks()).failure).toMatchObject({
      name: 'envelope',
      detail: expect.stringContaining('duplicate key') as unknown,
    });
    expect(() =>
      sealEvidence(bundleOf(records('prun_test', 2), 'someone-else'), keys.signer),
    ).toThrow(/kid/);
  });

  it('keeps verifying evidence signed with a key rotated out', () => {
    const envelope = sealed(records('prun_test', 3));
    const rotated = keys.rotate(generateEd25519Jwk());
    expect(rotated.signer.kid).not.toBe(keys.signer.kid);
    expect(rotated.entries.map((entry) => entry.status)).toEqual(['retired', 'active']);
    expect(verifyEvidence(JSON.stringify(envelope), rotated.publicJwks()).ok).toBe(true);
    expect(() => createKeySet([])).toThrow(/exactly one active/);
  });
});
