import { describe, expect, it } from 'vitest';
import type { EvidenceBundle } from '../src/bundle/evidence-bundle.js';
import { sealEvidence } from '../src/bundle/seal-evidence.js';
import { verifyEvidence } from '../src/bundle/verify-evidence.js';
import { canonicalDigest } from '../src/digest.js';
import { tweetnaclBackend } from '../src/ed25519/tweetnacl-backend.js';
import type { EvidenceEnvironment } from '../src/environment.js';
import { generateEd25519Jwk, type Jwks } from '../src/keys/jwk.js';
import { createKeySet } from '../src/keys/key-set.js';
import { sampleBundle } from './support/sample-bundle.js';

const testKeys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
const liveKeys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
const scenarioDigest = canonicalDigest({ scenario: 'wallet' });

/** The keys of both environments, each marked with its own, as an engine publishes them. */
const marked = (environment: EvidenceEnvironment): Jwks => ({
  keys: (environment === 'test' ? testKeys : liveKeys)
    .publicJwks()
    .keys.map((key) => ({ ...key, environment })),
});
const bothMarked: Jwks = { keys: [...marked('test').keys, ...marked('live').keys] };

const bundleOf = (environment: EvidenceEnvironment, runId = 'prun_expected'): EvidenceBundle =>
  sampleBundle({
    kid: (environment === 'test' ? testKeys : liveKeys).signer.kid,
    runId,
    environment,
    run: { scenario_digest: scenarioDigest },
  });

const sealed = (bundle: EvidenceBundle, keys = testKeys): string =>
  JSON.stringify(sealEvidence(bundle, keys.signer));
const testBundle = sealed(bundleOf('test'));
const liveBundle = sealed(bundleOf('live'), liveKeys);

describe('verifying evidence against expectations', () => {
  it('passes an `expected` check naming every pin the bundle meets', () => {
    const result = verifyEvidence(testBundle, bothMarked, {
      expect: {
        runId: 'prun_expected',
        environment: 'test',
        scenarioId: 'wallet-delivery@v1',
        scenarioDigest,
        kid: testKeys.signer.kid,
      },
    });
    expect(result.ok).toBe(true);
    expect(result.checks.at(-1)).toEqual({
      name: 'expected',
      ok: true,
      detail: `run prun_expected, environment test, scenario wallet-delivery@v1, scenario digest ${scenarioDigest}, key ${testKeys.signer.kid}`,
    });
  });

  it('runs no `expected` check without expectations', () => {
    const result = verifyEvidence(testBundle, bothMarked, { expect: {} });
    expect(result.ok).toBe(true);
    expect(result.checks.map((check) => check.name)).not.toContain('expected');
  });

  it('fails a valid bundle of another run, environment, scenario, digest or key', () => {
    const failure = (expectations: Parameters<typeof verifyEvidence>[2]) =>
      verifyEvidence(testBundle, bothMarked, expectations);
    expect(failure({ expect: { runId: 'prun_other' } }).failure).toEqual({
      name: 'expected',
      ok: false,
      detail: 'run prun_expected, expected prun_other',
    });
    expect(failure({ expect: { environment: 'live' } }).failure?.detail).toBe(
      'environment test, expected live',
    );
    expect(failure({ expect: { scenarioId: 'wallet-delivery@v2' } }).failure?.detail).toBe(
      'scenario wallet-delivery@v1, expected wallet-delivery@v2',
    );
    expect(
      failure({ expect: { scenarioDigest: canonicalDigest({ other: true }) } }).failure?.name,
    ).toBe('expected');
    expect(failure({ expect: { kid: liveKeys.signer.kid } }).failure?.detail).toBe(
      `key ${testKeys.signer.kid}, expected ${liveKeys.signer.kid}`,
    );
    const both = failure({ expect: { runId: 'prun_other', environment: 'live' } });
    expect(both).toMatchObject({ ok: false, bundle: null });
    expect(both.failure?.detail).toBe(
      'run prun_expected, expected prun_other; environment test, expected live',
    );
  });

  it('keeps accepting a backend as the third argument', () => {
    expect(verifyEvidence(testBundle, bothMarked, tweetnaclBackend).ok).toBe(true);
  });
});

describe('keys bound to an environment', () => {
  it('verifies each environment with its own key, and says which', () => {
    const test = verifyEvidence(testBundle, bothMarked);
    const live = verifyEvidence(liveBundle, bothMarked, { expect: { environment: 'live' } });
    expect([test.ok, live.ok]).toEqual([true, true]);
    expect(test.checks.find((check) => check.name === 'key')?.detail).toBe(
      `Ed25519 key ${testKeys.signer.kid} (test evidence)`,
    );
  });

  it('refuses a live bundle signed with the test key, even though the signature is valid', () => {
    const forged = sealed({ ...bundleOf('live'), signing: bundleOf('test').signing }, testKeys);
    const result = verifyEvidence(forged, bothMarked);
    expect(result.failure).toEqual({
      name: 'key',
      ok: false,
      detail: `the JWKS key ${testKeys.signer.kid} signs test evidence only, and the bundle claims the live environment`,
    });
    expect(result.bundle).toBeNull();
    // Unmarked keys (one key set for both environments) are not bound.
    expect(verifyEvidence(forged, testKeys.publicJwks()).ok).toBe(true);
  });

  it('fails a live bundle against the test keys only, and a test bundle pinned to live', () => {
    expect(verifyEvidence(liveBundle, marked('test')).failure).toMatchObject({
      name: 'key',
      detail: `no key ${liveKeys.signer.kid} in the JWKS`,
    });
    expect(
      verifyEvidence(testBundle, bothMarked, { expect: { environment: 'live' } }).failure,
    ).toMatchObject({ name: 'expected', detail: 'environment test, expected live' });
  });

  it('refuses a key marked with an unknown environment, and a bundle whose livemode disagrees', () => {
    const odd = {
      keys: [{ ...testKeys.publicJwks().keys[0]!, environment: 'staging' }],
    } as unknown as Jwks;
    expect(verifyEvidence(testBundle, odd).failure?.detail).toMatch(
      /unknown environment "staging"/,
    );
    const bundle = bundleOf('test');
    const confused = sealed({ ...bundle, run: { ...bundle.run, livemode: true } });
    expect(verifyEvidence(confused, bothMarked).failure?.name).toBe('statement');
  });
});
