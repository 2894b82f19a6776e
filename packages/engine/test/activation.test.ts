import { beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '@programrun/evidence';
import type { CompiledScenario } from '@programrun/dsl';
import { createVirtualClock, type Engine, type Scope } from '../src/index.js';
import { memoryEngine, TEST_START } from './memory-engine.js';
import { expectEngineError } from './expect-engine-error.js';
import { catalogueScenarios } from './scenarios.js';

const live: Scope = { account: 'acct_issuer_client', environment: 'live' };
const test: Scope = { account: 'acct_issuer_client', environment: 'test' };
const otherLive: Scope = { account: 'acct_other', environment: 'live' };

let scenarios: CompiledScenario[];
let reserve: CompiledScenario;
beforeAll(async () => {
  scenarios = await catalogueScenarios();
  reserve = scenarios.find((scenario) => scenario.id === 'reserve-usd-cycle@v1')!;
});

const newEngine = (): Engine =>
  memoryEngine(scenarios, 'activation', { clock: createVirtualClock(TEST_START) });

const createReserveRun = (engine: Engine, scope: Scope) =>
  engine.createRun(scope, { scenario_id: reserve.id, inputs: reserve.definition.example_inputs });

describe('restricted track: issuer activation', () => {
  it('holds a live run suspended in intake until the account is activated, then starts it', async () => {
    const engine = newEngine();
    const { run, created } = await createReserveRun(engine, live);
    expect(created).toBe(true);
    expect(run).toMatchObject({
      status: 'suspended',
      livemode: true,
      stage: null,
      awaiting: null,
      posture: {
        environment: 'live',
        asset_track: 'restricted',
        activation: { required: true, status: 'pending', reference: null, activated_at: null },
      },
    });
    expect(run.stages.every((stage) => stage.status === 'pending')).toBe(true);
    const held = await engine.listEvents(live, run.id);
    expect(held.map((record) => record.type)).toEqual([
      'program_run.created',
      'program_run.suspended',
    ]);
    expect(held[1]!.data).toEqual({
      reason: 'issuer_activation_required',
      asset_track: 'restricted',
      scenario: 'reserve-usd-cycle',
    });
    // Nothing runs while suspended: no timers, no partner asked, signals refused.
    expect(await engine.nextTimerDue(live)).toBeNull();
    await expectEngineError(
      engine.signal(live, run.id, {
        kind: 'approval',
        step: 'anything',
        decision: 'approve',
        approver: 'ops:ana',
      }),
      'run_suspended',
    );

    // Another account's activation does not start it.
    await engine.activations.activate(otherLive.account, {
      scenario: 'reserve-usd-cycle',
      reference: 'ISS-OTHER',
    });
    expect((await engine.getRun(live, run.id)).status).toBe('suspended');

    const result = await engine.activations.activate(live.account, {
      scenario: 'reserve-usd-cycle',
      reference: 'ISS-2026-0042',
    });
    expect(result.resumed_runs).toEqual([run.id]);
    expect(result.activation).toMatchObject({
      object: 'issuer_activation',
      account: live.account,
      scenario: 'reserve-usd-cycle',
      status: 'active',
      reference: 'ISS-2026-0042',
    });
    const started = await engine.getRun(live, run.id);
    expect(started.status).not.toBe('suspended');
    expect(started.stage).not.toBeNull();
    expect(started.posture.activation).toEqual({
      required: true,
      status: 'active',
      reference: 'ISS-2026-0042',
      activated_at: result.activation.activated_at,
    });
    const records = await engine.listEvents(live, run.id);
    expect(records.slice(0, 4).map((record) => record.type)).toEqual([
      'program_run.created',
      'program_run.suspended',
      'program_run.resumed',
      'program_run.stage.started',
    ]);
    expect(verifyChain(records, { expectedHead: started.evidence.chain_head })).toMatchObject({
      ok: true,
    });
  });

  it('starts live runs at once for an activated account, and suspends again after revocation', async () => {
    const engine = newEngine();
    await engine.activations.activate(live.account, {
      scenario: 'reserve-usd-cycle',
      reference: 'ISS-1',
    });
    // Activating again keeps the first activation.
    const again = await engine.activations.activate(live.account, {
      scenario: 'reserve-usd-cycle',
      reference: 'ISS-2',
    });
    expect(again.activation.reference).toBe('ISS-1');
    const { run } = await createReserveRun(engine, live);
    expect(run.status).not.toBe('suspended');
    expect(run.posture.activation).toMatchObject({ status: 'active', reference: 'ISS-1' });

    const revoked = await engine.activations.revoke(live.account, 'reserve-usd-cycle');
    expect(revoked).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) as unknown });
    expect((await createReserveRun(engine, live)).run.status).toBe('suspended');
    // The run that already left intake goes on.
    expect((await engine.getRun(live, run.id)).status).toBe(run.status);
    expect(await engine.activations.list(live.account)).toEqual([revoked]);
  });

  it('needs no activation in the test environment or for other tracks', async () => {
    const engine = newEngine();
    const { run } = await createReserveRun(engine, test);
    expect(run.status).not.toBe('suspended');
    expect(run.posture.activation).toEqual({
      required: false,
      status: 'not_required',
      reference: null,
      activated_at: null,
    });
    const wallet = scenarios.find((scenario) => scenario.id === 'wallet-delivery@v1')!;
    const liveWallet = await engine.createRun(live, {
      scenario_id: wallet.id,
      inputs: wallet.definition.example_inputs,
    });
    expect(liveWallet.run.posture.activation.status).toBe('not_required');
  });

  it('cancels a suspended run without running anything, and seals its history', async () => {
    const engine = newEngine();
    const { run } = await createReserveRun(engine, live);
    const { run: cancelled } = await engine.signal(live, run.id, {
      kind: 'cancel',
      reason: 'client withdrew',
    });
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      outcome: {
        status: 'cancelled',
        step: null,
        reason: 'cancel_requested',
        message: 'client withdrew',
      },
    });
    const records = await engine.listEvents(live, run.id);
    expect(records.map((record) => record.type)).toEqual([
      'program_run.created',
      'program_run.suspended',
      'program_run.cancelled',
      'program_run.evidence.sealed',
    ]);
    expect(verifyChain(records, { expectedHead: cancelled.evidence.chain_head })).toMatchObject({
      ok: true,
    });
    // A later activation leaves it alone; signals are refused as for any finished run.
    const { resumed_runs } = await engine.activations.activate(live.account, {
      scenario: 'reserve-usd-cycle',
      reference: 'ISS-3',
    });
    expect(resumed_runs).toEqual([]);
    await expectEngineError(engine.signal(live, run.id, { kind: 'cancel' }), 'run_finished');
  });

  it('refuses activations of unknown or unrestricted scenarios and without a reference', async () => {
    const engine = newEngine();
    await expectEngineError(
      engine.activations.activate(live.account, { scenario: 'nope', reference: 'x' }),
      'scenario_not_found',
    );
    await expectEngineError(
      engine.activations.activate(live.account, {
        scenario: 'reserve-usd-cycle@v1',
        reference: 'x',
      }),
      'scenario_not_found',
    );
    await expectEngineError(
      engine.activations.activate(live.account, { scenario: 'wallet-delivery', reference: 'x' }),
      'scenario_not_restricted',
    );
    await expectEngineError(
      engine.activations.activate(live.account, { scenario: 'reserve-usd-cycle', reference: ' ' }),
      'invalid_activation',
    );
    await expectEngineError(
      engine.activations.revoke(live.account, 'reserve-usd-cycle'),
      'activation_not_found',
    );
  });

  it('refuses production_placeholder scenarios in live, naming the track', async () => {
    const engine = newEngine();
    const qr = scenarios.find((scenario) => scenario.id === 'qr-merchant-settlement@v1')!;
    const error = await expectEngineError(
      engine.createRun(live, { scenario_id: qr.id, inputs: qr.definition.example_inputs }),
      'track_not_available',
    );
    expect(error.message).toContain('production_placeholder');
    expect(error.issues).toEqual([
      {
        pointer: '/scenario_id',
        code: 'track_not_available',
        message: 'is on the production_placeholder track, which runs only with test keys',
      },
    ]);
  });
});
