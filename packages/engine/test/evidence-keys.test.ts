import { beforeAll, describe, expect, it } from 'vitest';
import {
  createKeySet,
  generateEd25519Jwk,
  isProgramrunError,
  verifyEvidence,
  type EvidenceKeySet,
} from '@programrun/evidence';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  EngineError,
  type EvidenceKeysOption,
  type Scope,
} from '../src/index.js';
import { catalogueScenarios, WALLET_INPUTS } from './scenarios.js';

const lead = {
  name: 'Ana',
  email: 'ana@example.com',
  company: 'Example',
  use_case: 'Audit',
};
const test: Scope = { account: 'acct_keys', environment: 'test' };
const live: Scope = { account: 'acct_keys', environment: 'live' };
const newSet = (): EvidenceKeySet =>
  createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
const testKeys = newSet();
const liveKeys = newSet();
let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

const newEngine = (keys: EvidenceKeysOption) =>
  createEngine({
    store: createMemoryStore(),
    scenarios,
    testClock: createVirtualClock(),
    evidence: { keys },
  });

/** Exports the evidence of a new run in `scope` (a lead linked to its session). */
async function exported(engine: ReturnType<typeof newEngine>, scope: Scope): Promise<string> {
  const session_id = `sess_${scope.environment}`;
  const { run } = await engine.createRun(scope, {
    scenario_id: 'wallet-delivery@v1',
    inputs: WALLET_INPUTS,
    session_id,
  });
  await engine.createAccessRequest(scope, { ...lead, session_id });
  return JSON.stringify(await engine.exportEvidence(scope, run.id));
}

describe('evidence keys per environment', () => {
  it('signs each environment with its own keys and marks them in the JWKS', async () => {
    const engine = newEngine({ test: testKeys, live: liveKeys });
    const jwks = engine.evidenceKeys();
    expect(jwks.keys.map((key) => [key.kid, key.environment])).toEqual([
      [testKeys.signer.kid, 'test'],
      [liveKeys.signer.kid, 'live'],
    ]);
    expect(engine.evidenceKeys('live').keys.map((key) => key.kid)).toEqual([liveKeys.signer.kid]);

    const testBundle = await exported(engine, test);
    const liveBundle = await exported(engine, live);
    expect(JSON.parse(testBundle)).toMatchObject({
      signatures: [{ keyid: testKeys.signer.kid }],
    });
    expect(JSON.parse(liveBundle)).toMatchObject({
      signatures: [{ keyid: liveKeys.signer.kid }],
    });
    expect(verifyEvidence(testBundle, jwks, { expect: { environment: 'test' } }).ok).toBe(true);
    expect(verifyEvidence(liveBundle, jwks, { expect: { environment: 'live' } }).ok).toBe(true);

    // A test bundle pinned to live fails; a live bundle fails against the test keys only.
    expect(
      verifyEvidence(testBundle, jwks, { expect: { environment: 'live' } }).failure,
    ).toMatchObject({ name: 'expected', detail: 'environment test, expected live' });
    expect(verifyEvidence(liveBundle, engine.evidenceKeys('test')).failure).toMatchObject({
      name: 'key',
      detail: `no key ${liveKeys.signer.kid} in the JWKS`,
    });
  });

  it('keeps retired keys of each environment published with it', () => {
    const rotated = testKeys.rotate(generateEd25519Jwk());
    const engine = newEngine({ test: rotated, live: liveKeys });
    expect(engine.evidenceKeys('test').keys).toEqual([
      expect.objectContaining({ kid: testKeys.signer.kid, environment: 'test' }),
      expect.objectContaining({ kid: rotated.signer.kid, environment: 'test' }),
    ]);
  });

  it('refuses test and live sets that share a key, even a retired one', () => {
    // The test key, retired into the live set, would still let it sign "live" evidence.
    const shared = () =>
      newEngine({
        test: testKeys,
        live: createKeySet([
          { key: testKeys.entries[0]!.key, status: 'retired' },
          { key: generateEd25519Jwk(), status: 'active' },
        ]),
      });
    expect(shared).toThrow(`the test and live evidence key sets share key ${testKeys.signer.kid}`);
    try {
      shared();
    } catch (error) {
      expect(isProgramrunError(error) && error.code).toBe('invalid_key');
    }
  });

  it('exports no evidence of an environment without keys', async () => {
    const engine = newEngine({ test: testKeys });
    expect(engine.evidenceKeys().keys.map((key) => key.environment)).toEqual(['test']);
    expect(() => engine.evidenceKeys('live')).toThrow(EngineError);
    await expect(exported(engine, live)).rejects.toMatchObject({
      code: 'evidence_keys_missing',
      message: expect.stringContaining('for the live environment') as unknown,
    });
    expect(await exported(engine, test)).toContain('"payloadType"');
  });

  it('still accepts one key set for both environments, published unmarked', async () => {
    const engine = newEngine(testKeys);
    expect(engine.evidenceKeys().keys[0]).not.toHaveProperty('environment');
    expect(engine.evidenceKeys('live')).toEqual(engine.evidenceKeys());
    const liveBundle = await exported(engine, live);
    expect(verifyEvidence(liveBundle, engine.evidenceKeys()).ok).toBe(true);
  });
});
