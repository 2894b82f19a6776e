import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import { type Engine, type Scope } from '../src/index.js';
import { memoryEngine } from './memory-engine.js';
import { expectEngineError } from './expect-engine-error.js';
import { catalogueScenarios, WALLET_INPUTS } from './scenarios.js';

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

const newEngine = (): Engine => memoryEngine(scenarios, 'signal-senders');

const live: Scope = { account: 'acct_demo', environment: 'live' };
const test: Scope = { account: 'acct_demo', environment: 'test' };

describe('who sent a signal', () => {
  it('refuses a live partner answer without its pik_ key, and records who answered', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(live, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
      idempotency_key: 'live-1',
    });
    const answer = {
      kind: 'handoff',
      step: 'screen_destination',
      outcome: 'confirmed',
      reference: 'ca-1',
      data: { risk: 'low' },
      answered_by: { actor: 'partner:chain_analytics', credential_id: 'key_partner' },
    } as const;
    const refused = await expectEngineError(
      engine.signal(live, run.id, answer),
      'handoff_key_required',
    );
    expect(refused.message).toContain('screen_destination');
    expect((await engine.getRun(live, run.id)).awaiting?.step).toBe('screen_destination');

    const requested = (await engine.listEvents(live, run.id)).find(
      (record) => record.type === 'program_run.handoff.requested',
    )!;
    const key = requested.data.idempotency_key as string;
    const { applied } = await engine.signal(live, run.id, { ...answer, idempotency_key: key });
    expect(applied).toBe(true);
    const confirmed = (await engine.listEvents(live, run.id)).find(
      (record) => record.type === 'program_run.handoff.confirmed',
    )!;
    expect(confirmed.data).toEqual({
      party: 'chain_analytics',
      reference: 'ca-1',
      data: { risk: 'low' },
      answered_by: { actor: 'partner:chain_analytics', credential_id: 'key_partner' },
    });
  });

  it('records the credential and label of a decision beside the approver it counts', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
      idempotency_key: 'test-1',
    });
    await engine.advanceTestClock(test.account, 60);
    await engine.signal(test, run.id, {
      kind: 'approval',
      step: 'release_approval',
      decision: 'approve',
      approver: 'ops:alice',
      credential_id: 'key_alice',
      label: 'Alice (treasury)',
    });
    const granted = (await engine.listEvents(test, run.id)).find(
      (record) => record.type === 'program_run.approval.granted',
    )!;
    expect(granted.data.decisions).toEqual([
      {
        approver: 'ops:alice',
        decision: 'approve',
        note: null,
        at: expect.any(String) as unknown,
        credential_id: 'key_alice',
        label: 'Alice (treasury)',
      },
    ]);
  });
});
