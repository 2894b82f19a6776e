import { fileURLToPath } from 'node:url';
import { compile } from '@programrun/dsl';
import { loadScenarioFile } from '@programrun/dsl/node';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  type Scope,
} from '@programrun/engine';
import { createKeySet, generateEd25519Jwk } from '@programrun/evidence';

/**
 * Evidence of a test run and of a live run from an engine with a key set per environment:
 * the envelopes, the JWKS of both environments (each key marked) and of each alone, as
 * texts a client would save, with the runs' ids and the kids (and the test signer, to forge).
 */
export async function exportedPerEnvironment() {
  const loaded = await loadScenarioFile(
    fileURLToPath(new URL('../../../scenarios/wallet-delivery@v1.yaml', import.meta.url)),
  );
  if (!loaded.ok) throw new Error('scenario does not load');
  const compiled = compile(loaded.scenario);
  const testKeys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
  const liveKeys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios: [compiled],
    testClock: createVirtualClock(),
    evidence: { keys: { test: testKeys, live: liveKeys } },
  });
  const exported = async (environment: 'test' | 'live') => {
    const scope: Scope = { account: 'acct_cli', environment };
    const session_id = `sess_${environment}`;
    const { run } = await engine.createRun(scope, {
      scenario_id: compiled.id,
      session_id,
      inputs: compiled.definition.example_inputs,
    });
    await engine.createAccessRequest(scope, {
      session_id,
      name: 'Ana',
      email: 'ana@example.com',
      company: 'Example',
      use_case: 'Audit',
    });
    return { runId: run.id, envelope: JSON.stringify(await engine.exportEvidence(scope, run.id)) };
  };
  return {
    test: { ...(await exported('test')), kid: testKeys.signer.kid, signer: testKeys.signer },
    live: { ...(await exported('live')), kid: liveKeys.signer.kid },
    jwks: JSON.stringify(engine.evidenceKeys()),
    testJwks: JSON.stringify(engine.evidenceKeys('test')),
    liveJwks: JSON.stringify(engine.evidenceKeys('live')),
  };
}
