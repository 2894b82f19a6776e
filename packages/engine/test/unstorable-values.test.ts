import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  isStoreError,
  seededIds,
  type Engine,
  type Scope,
} from '../src/index.js';
import { expectEngineError } from './expect-engine-error.js';
import { catalogueScenarios, WALLET_INPUTS } from './scenarios.js';

// Engine callers (not only HTTP) get a clear error for values no store keeps alike.

const scope: Scope = { account: 'acct_demo', environment: 'test' };

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

const newEngine = (): Engine =>
  createEngine({
    store: createMemoryStore(),
    scenarios,
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
    ids: seededIds('unstorable'),
  });

describe('values no store can keep', () => {
  it('refuses inputs with NUL or an unpaired surrogate as invalid_inputs, naming each', async () => {
    const error = await expectEngineError(
      newEngine().createRun(scope, {
        scenario_id: 'wallet-delivery@v1',
        inputs: { ...WALLET_INPUTS, customer_reference: 'ref\u0000', 'x\ud800': 1 },
      }),
      'invalid_inputs',
    );
    expect(error.issues).toEqual([
      {
        pointer: '/inputs/customer_reference',
        code: 'invalid_input',
        message: 'contains U+0000 (NUL), which PostgreSQL text cannot hold',
      },
      {
        pointer: '/inputs/x\ud800',
        code: 'invalid_input',
        message: 'contains an unpaired UTF-16 surrogate, which has no UTF-8 form',
      },
    ]);
  });

  it('answers a NUL in an id or an out-of-range sequence with a StoreError, not a crash', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
    });
    const refusal = await engine.getRun(scope, `${run.id}\u0000`).catch((error: unknown) => error);
    expect(isStoreError(refusal, 'unstorable_value'), String(refusal)).toBe(true);
    expect(String(refusal)).toMatch(/getRun: argument 2 contains U\+0000/);
    const records = await engine
      .listEvents(scope, run.id, { afterSequence: 2 ** 31 })
      .catch((error: unknown) => error);
    expect(isStoreError(records, 'unstorable_value'), String(records)).toBe(true);
  });
});
