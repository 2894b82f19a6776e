import { beforeAll, describe, expect, it } from 'vitest';
import { createKeySet, generateEd25519Jwk, verifyEvidence } from '@programrun/evidence';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  EngineError,
  type Scope,
} from '../src/index.js';
import { catalogueScenarios } from './scenarios.js';

const scope: Scope = { account: 'acct_evidence', environment: 'test' };
const inputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};
const lead = {
  session_id: 'sess_1',
  name: 'Ana',
  email: 'ana@example.com',
  company: 'Example',
  use_case: 'Audit',
};
let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

const keys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
const newEngine = (withKeys = true) =>
  createEngine({
    store: createMemoryStore(),
    scenarios,
    testClock: createVirtualClock(),
    ...(withKeys ? { evidence: { keys } } : {}),
  });

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof EngineError ? error.code : String(error)),
  );
}

describe('evidence in the engine', () => {
  it('marks runs exportable as soon as a lead is linked to their session', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      session_id: 'sess_1',
    });
    expect(run.evidence.exportable).toBe(false);
    expect(await errorCode(engine.exportEvidence(scope, run.id))).toBe('lead_required');
    const first = await engine.createAccessRequest(scope, lead);
    const again = await engine.createAccessRequest(scope, { ...lead, name: 'Other' });
    expect(first.created).toBe(true);
    expect(again).toEqual({ accessRequest: first.accessRequest, created: false });
    expect((await engine.getRun(scope, run.id)).evidence.exportable).toBe(true);
    expect((await engine.listRuns(scope)).data[0]!.evidence.exportable).toBe(true);
    const verified = verifyEvidence(
      JSON.stringify(await engine.exportEvidence(scope, run.id)),
      engine.evidenceKeys(),
    );
    expect(verified.ok).toBe(true);
    // A lead in another environment does not count.
    await engine.createAccessRequest(
      { ...scope, environment: 'live' },
      { ...lead, session_id: 'sess_2' },
    );
    const other = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      session_id: 'sess_2',
    });
    expect(other.run.evidence.exportable).toBe(false);
  });

  it('refuses incomplete access requests', async () => {
    expect(await errorCode(newEngine().createAccessRequest(scope, { ...lead, email: ' ' }))).toBe(
      'invalid_access_request',
    );
  });

  it('needs signing keys to export or publish keys', async () => {
    const engine = newEngine(false);
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      session_id: 'sess_1',
    });
    await engine.createAccessRequest(scope, lead);
    expect(await errorCode(engine.exportEvidence(scope, run.id))).toBe('evidence_keys_missing');
    expect(() => engine.evidenceKeys()).toThrow(EngineError);
  });

  it('seals the history once, whatever final status the run reaches', async () => {
    const engine = newEngine();
    const denied = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: { ...inputs, amount: '50000.00' },
    });
    expect(denied.run.status).toBe('faulted');
    const faultedTypes = (await engine.listEvents(scope, denied.run.id)).map((event) => event.type);
    expect(faultedTypes.slice(-2)).toEqual(['program_run.faulted', 'program_run.evidence.sealed']);

    const waiting = await engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs });
    await engine.advanceTestClock(scope.account, 30);
    await engine.signal(scope, waiting.run.id, { kind: 'cancel', reason: 'test' });
    const cancelled = await engine.listEvents(scope, waiting.run.id);
    expect(cancelled.at(-1)).toMatchObject({
      type: 'program_run.evidence.sealed',
      data: { status: 'cancelled', records: cancelled.length },
    });
    expect(cancelled.filter((event) => event.type === 'program_run.evidence.sealed')).toHaveLength(
      1,
    );
  });
});
