import { beforeAll, describe, expect, it } from 'vitest';
import { verifyChain, type JsonObject } from '@programrun/evidence';
import { compile, type CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  seededIds,
  type Engine,
  type Scope,
} from '../src/index.js';
import { expectEngineError } from './expect-engine-error.js';
import { catalogueScenarios, WALLET_INPUTS } from './scenarios.js';

const scope: Scope = { account: 'acct_demo', environment: 'test' };
const inputs = WALLET_INPUTS;

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

function newEngine(seed = 'engine-test'): Engine {
  return createEngine({
    store: createMemoryStore(),
    scenarios,
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
    ids: seededIds(seed),
  });
}

describe('wallet-delivery@v1 in the test environment', () => {
  it('runs from creation to completion with simulated partners and a hash-chained history', async () => {
    const engine = newEngine();
    const { run, created } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      session_id: 'sess_1',
      idempotency_key: 'create-1',
    });
    expect(created).toBe(true);
    expect(run).toMatchObject({
      object: 'program_run',
      livemode: false,
      scenario_id: 'wallet-delivery@v1',
      status: 'waiting',
      stage: 'intake',
      session_id: 'sess_1',
      awaiting: {
        kind: 'handoff',
        step: 'screen_destination',
        party: 'chain_analytics',
        deadline: '2026-03-02T09:10:00.000Z',
      },
      posture: { environment: 'test', asset_track: 'public_demo', execution: 'simulated' },
      policy: { decision: 'allow' },
    });
    expect(run.id).toMatch(/^prun_[0-9a-f]{24}$/);
    expect(run.stages.map((stage) => stage.status)).toEqual(['active', 'pending', 'pending']);
    expect(run.policy.controls).toEqual([
      expect.objectContaining({ id: 'destination_screening', status: 'pending' }),
    ]);

    // The chain analytics partner answers after its simulated latency (PT20S).
    await engine.advanceTestClock(scope.account, 19);
    expect((await engine.getRun(scope, run.id)).awaiting?.step).toBe('screen_destination');
    await engine.advanceTestClock(scope.account, 1);
    const screened = await engine.getRun(scope, run.id);
    expect(screened).toMatchObject({
      stage: 'release',
      awaiting: {
        kind: 'approval',
        step: 'release_approval',
        approvers: ['treasury_ops'],
        quorum: 1,
        approvals: 0,
      },
    });
    expect(screened.policy.controls[0]!.status).toBe('satisfied');

    const approved = await engine.signal(scope, run.id, {
      kind: 'approval',
      step: 'release_approval',
      decision: 'approve',
      approver: 'ops:alice',
    });
    expect(approved.applied).toBe(true);
    expect(approved.run.awaiting).toMatchObject({
      kind: 'handoff',
      step: 'transfer_to_wallet',
      party: 'custodian',
    });

    await engine.advanceTestClock(scope.account, 60);
    const done = await engine.getRun(scope, run.id);
    expect(done).toMatchObject({
      status: 'completed',
      awaiting: null,
      outcome: null,
      completed_at: '2026-03-02T09:01:05.000Z',
    });
    expect(done.stages.every((stage) => stage.status === 'completed')).toBe(true);

    const events = await engine.listEvents(scope, run.id);
    expect(events.map((event) => event.type)).toEqual([
      'program_run.created',
      'program_run.stage.started',
      'program_run.policy.evaluated',
      'program_run.handoff.requested',
      'program_run.handoff.confirmed',
      'program_run.policy.evaluated',
      'program_run.stage.completed',
      'program_run.stage.started',
      'program_run.approval.requested',
      'program_run.approval.granted',
      'program_run.stage.completed',
      'program_run.stage.started',
      'program_run.handoff.requested',
      'program_run.handoff.confirmed',
      'program_run.delivery.recorded',
      'program_run.stage.completed',
      'program_run.completed',
      'program_run.evidence.sealed',
    ]);
    expect(verifyChain(events, { expectedHead: done.evidence.chain_head })).toMatchObject({
      ok: true,
    });
    const delivery = events.find((event) => event.type === 'program_run.delivery.recorded')!;
    expect((delivery.data.data as JsonObject).transaction_reference).toMatch(/^sim_/);
    const transfer = events.filter((event) => event.type === 'program_run.handoff.requested')[1]!;
    expect(transfer.data).toMatchObject({
      party: 'custodian',
      action: 'asset.transfer',
      idempotency_key: expect.stringMatching(/^pik_[0-9a-f]{32}$/) as unknown,
      request: {
        asset: 'PRDEMO',
        amount: '125.00',
        network: 'base',
        to: inputs.destination_wallet_address,
      },
    });
  });

  it('returns the same run for the same idempotency key', async () => {
    const engine = newEngine();
    const first = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'k',
    });
    const again = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'k',
    });
    expect(again).toEqual({ run: first.run, created: false });
    const otherScope = await engine.createRun(
      { account: 'acct_other', environment: 'test' },
      { scenario_id: 'wallet-delivery@v1', inputs, idempotency_key: 'k' },
    );
    expect(otherScope.created).toBe(true);
  });

  it('refuses bad inputs with a pointer per problem', async () => {
    const engine = newEngine();
    const error = await expectEngineError(
      engine.createRun(scope, {
        scenario_id: 'wallet-delivery@v1',
        inputs: {
          amount: 125,
          destination_wallet_address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
        },
      }),
      'invalid_inputs',
    );
    expect(error.issues.map((issue) => issue.pointer).sort()).toEqual([
      '/inputs/amount',
      '/inputs/destination_wallet_address',
    ]);
    await expectEngineError(
      engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs: [] }),
      'invalid_inputs',
    );
    await expectEngineError(
      engine.createRun(scope, { scenario_id: 'nope@v1', inputs }),
      'scenario_not_found',
    );
  });

  it('sends deliveries above 2,500.00 to a compliance review', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: { ...inputs, amount: '4000.00' },
    });
    expect(run).toMatchObject({
      status: 'waiting',
      awaiting: { kind: 'approval', step: 'amount_gate', approvers: ['compliance_desk'] },
      policy: { decision: 'review' },
    });
    const reviewed = await engine.signal(scope, run.id, {
      kind: 'approval',
      step: 'amount_gate',
      decision: 'approve',
      approver: 'compliance:bob',
    });
    expect(reviewed.run.awaiting?.step).toBe('screen_destination');
    expect(reviewed.run.policy.decision).toBe('allow');
    expect(
      reviewed.run.policy.rules.find((rule) => rule.id === 'large_delivery_review'),
    ).toMatchObject({
      outcome: 'fail',
      review: 'approved',
    });
    // The review decided the failing review rule only, not the deny rule that passed.
    expect(reviewed.run.policy.rules.find((rule) => rule.id === 'within_demo_cap')).toMatchObject({
      outcome: 'pass',
      review: null,
    });
  });

  it('denies deliveries above the demo cap and faults with the failing rule', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: { ...inputs, amount: '20000.00' },
    });
    expect(run).toMatchObject({
      status: 'faulted',
      outcome: { status: 'faulted', step: 'amount_gate', reason: 'policy_denied' },
      policy: { decision: 'deny' },
    });
    expect(run.stages[0]!.status).toBe('faulted');
    // Faulted in its first step, the run's stage is the one it ended in.
    expect(run.stage).toBe('intake');
  });

  it('faults when the partner does not answer before the timeout', async () => {
    const engine = createEngine({
      store: createMemoryStore(),
      scenarios,
      testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
      sandbox: { responseDelayMs: 3_600_000 },
    });
    const { run } = await engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs });
    await engine.advanceTestClock(scope.account, 600);
    const after = await engine.getRun(scope, run.id);
    expect(after).toMatchObject({
      status: 'faulted',
      outcome: { step: 'screen_destination', reason: 'handoff_timed_out' },
    });
    // The simulated answer that arrives later changes nothing.
    await engine.advanceTestClock(scope.account, 3_600);
    expect((await engine.getRun(scope, run.id)).updated_at).toBe(after.updated_at);
  });

  it('acknowledges duplicate partner callbacks and refuses signals that do not fit', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs });
    await expectEngineError(engine.signal(scope, run.id, { kind: 'cancel' }), 'cancel_not_allowed');
    await expectEngineError(
      engine.signal(scope, run.id, {
        kind: 'approval',
        step: 'release_approval',
        decision: 'approve',
        approver: 'a',
      }),
      'step_not_awaiting',
    );
    const callback = {
      kind: 'handoff',
      step: 'screen_destination',
      outcome: 'confirmed',
      reference: 'case-77',
      data: { risk: 'low' },
    } as const;
    expect((await engine.signal(scope, run.id, callback)).applied).toBe(true);
    const duplicate = await engine.signal(scope, run.id, callback);
    expect(duplicate.applied).toBe(false);
    expect(duplicate.run.awaiting?.step).toBe('release_approval');
    await expectEngineError(
      engine.signal(scope, run.id, { ...callback, reference: 'case-78' }),
      'step_not_awaiting',
    );

    const cancelled = await engine.signal(scope, run.id, {
      kind: 'cancel',
      reason: 'customer withdrew',
    });
    expect(cancelled.run).toMatchObject({
      status: 'cancelled',
      outcome: { status: 'cancelled', message: 'customer withdrew' },
    });
    await expectEngineError(engine.signal(scope, run.id, { kind: 'cancel' }), 'run_finished');
  });

  it('keeps runs of other accounts and environments out of reach', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs });
    await expectEngineError(
      engine.getRun({ account: 'acct_other', environment: 'test' }, run.id),
      'run_not_found',
    );
    await expectEngineError(
      engine.getRun({ account: scope.account, environment: 'live' }, run.id),
      'run_not_found',
    );
    await expectEngineError(
      engine.signal({ account: 'acct_other', environment: 'test' }, run.id, { kind: 'cancel' }),
      'run_not_found',
    );
  });

  it('gives byte-identical lifecycle records for the same seed, inputs and signals', async () => {
    const history = async () => {
      const engine = newEngine('same-seed');
      const { run } = await engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs });
      await engine.advanceTestClock(scope.account, 30);
      await engine.signal(scope, run.id, {
        kind: 'approval',
        step: 'release_approval',
        decision: 'approve',
        approver: 'x',
      });
      await engine.advanceTestClock(scope.account, 60);
      return JSON.stringify(await engine.listEvents(scope, run.id));
    };
    expect(await history()).toBe(await history());
  });

  it('lists runs newest first with a cursor', async () => {
    const engine = newEngine();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      ids.push(
        (await engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs })).run.id,
      );
      await engine.advanceTestClock(scope.account, 1);
    }
    const first = await engine.listRuns(scope, { limit: 2 });
    expect(first.data.map((run) => run.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = await engine.listRuns(scope, { limit: 2, starting_after: ids[1]! });
    expect(second.data.map((run) => run.id)).toEqual([ids[0]]);
  });

  it('refuses production_placeholder scenarios in live', async () => {
    const engine = newEngine();
    const placeholder = scenarios.find(
      (scenario) => scenario.definition.asset_track === 'production_placeholder',
    );
    if (!placeholder) return;
    await expectEngineError(
      engine.createRun(
        { account: 'acct_demo', environment: 'live' },
        { scenario_id: placeholder.id, inputs: placeholder.definition.example_inputs },
      ),
      'track_not_available',
    );
  });
});

describe('safety of partner answers and retries', () => {
  it('refuses a late answer to an earlier attempt of a retried handoff', async () => {
    const engine = newEngine();
    const qr = scenarios.find((scenario) => scenario.id === 'qr-merchant-settlement@v1')!;
    const { run } = await engine.createRun(scope, {
      scenario_id: qr.id,
      inputs: qr.definition.example_inputs,
    });
    // Let partners answer until the payer approval waits, then let it lapse: the FX quote is requested again.
    for (
      let round = 0;
      round < 20 && (await engine.getRun(scope, run.id)).awaiting?.kind !== 'approval';
      round += 1
    ) {
      const due = await engine.nextTimerDue(scope);
      await engine.advanceTestClock(
        scope.account,
        Math.max(1, (new Date(due!).getTime() - (await engine.now(scope)).getTime()) / 1000),
      );
    }
    const waiting = await engine.getRun(scope, run.id);
    expect(waiting.awaiting).toMatchObject({ kind: 'approval', step: 'payer_approval' });
    await engine.advanceTestClock(
      scope.account,
      (new Date(waiting.awaiting!.deadline!).getTime() - (await engine.now(scope)).getTime()) /
        1000,
    );
    const retried = await engine.getRun(scope, run.id);
    expect(retried.awaiting).toMatchObject({ kind: 'handoff', step: 'lock_fx_quote' });

    const requests = (await engine.listEvents(scope, run.id)).filter(
      (event) => event.type === 'program_run.handoff.requested' && event.step === 'lock_fx_quote',
    );
    expect(requests.map((event) => event.data.attempt)).toEqual([1, 2]);
    const [first, second] = requests.map((event) => event.data.idempotency_key as string);
    const answer = {
      kind: 'handoff',
      step: 'lock_fx_quote',
      outcome: 'confirmed',
      reference: 'fx-late',
      data: {},
    } as const;
    const late = await expectEngineError(
      engine.signal(scope, run.id, { ...answer, idempotency_key: first }),
      'handoff_key_mismatch',
    );
    expect(late.message).toContain('attempt 1');
    await expectEngineError(
      engine.signal(scope, run.id, { ...answer, idempotency_key: `pik_${'0'.repeat(32)}` }),
      'handoff_key_mismatch',
    );
    expect((await engine.getRun(scope, run.id)).awaiting?.step).toBe('lock_fx_quote');
    const current = await engine.signal(scope, run.id, {
      ...answer,
      reference: 'fx-2',
      idempotency_key: second,
    });
    expect(current.applied).toBe(true);
  });

  it('refuses an idempotency key reused for a different run request', async () => {
    const engine = newEngine();
    await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs,
      idempotency_key: 'same',
    });
    await expectEngineError(
      engine.createRun(scope, {
        scenario_id: 'wallet-delivery@v1',
        inputs: { ...inputs, amount: '126.00' },
        idempotency_key: 'same',
      }),
      'idempotency_key_reused',
    );
    await expectEngineError(
      engine.createRun(scope, {
        scenario_id: 'wallet-delivery@v1',
        inputs,
        session_id: 'other',
        idempotency_key: 'same',
      }),
      'idempotency_key_reused',
    );
  });

  it('turns a simulated answer whose data cannot be computed into a failed handoff', async () => {
    const broken = compile(`scenario: broken-simulation
version: v1
title: Broken simulation
summary: The simulated partner data reads an input that is optional.
family: bank_payout
asset_track: public_demo
inputs: { type: object, properties: { note: { type: string } } }
example_inputs: {}
parties:
  bank: { name: Bank, role: banking }
stages:
  - id: payout
    title: Payout
    steps:
      - id: approve
        kind: approval
        title: Approve
        approvers: [bank]
        expires: PT1H
      - id: pay
        kind: handoff
        title: Pay
        party: bank
        action: payout.execute
        timeout: PT1H
        simulation: { latency: PT1S, data: { echoed: inputs.note } }
`);
    const engine = createEngine({
      store: createMemoryStore(),
      scenarios: [broken],
      testClock: createVirtualClock(),
    });
    const { run } = await engine.createRun(scope, { scenario_id: broken.id, inputs: {} });
    await engine.signal(scope, run.id, {
      kind: 'approval',
      step: 'approve',
      decision: 'approve',
      approver: 'a',
    });
    await engine.advanceTestClock(scope.account, 2);
    const after = await engine.getRun(scope, run.id);
    expect(after).toMatchObject({
      status: 'faulted',
      outcome: { step: 'pay', reason: 'handoff_failed' },
    });
    const failed = (await engine.listEvents(scope, run.id)).find(
      (event) => event.type === 'program_run.handoff.failed',
    )!;
    expect((failed.data.data as JsonObject).error as string).toContain('simulation.data echoed');
  });
});
