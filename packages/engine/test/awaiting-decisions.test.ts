// `awaiting.decisions`: who decided an awaited approval so far, oldest first, without the
// credential; null while a run waits on a handoff or a timer; filled from the snapshot for
// a record stored before the field existed.
import { describe, expect, it } from 'vitest';
import { compile } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  type AwaitingRecord,
  type RunRecord,
  type Scope,
  type StoreV1,
} from '../src/index.js';

const scope: Scope = { account: 'acct_demo', environment: 'test' };

const twoApprovers = compile(`scenario: two-approvers
version: v1
title: Two approvers
summary: A payout two people approve, then a bank pays after a wait.
family: bank_payout
asset_track: public_demo
inputs: { type: object, properties: {} }
example_inputs: {}
parties:
  ops: { name: Operations, role: operations }
  finance: { name: Finance, role: treasury }
  bank: { name: Bank, role: banking }
stages:
  - id: payout
    title: Payout
    steps:
      - id: release
        kind: approval
        title: Release
        approvers: [ops, finance]
        quorum: 2
        expires: PT1H
      - id: cool_off
        kind: wait
        title: Cool off
        duration: PT10M
      - id: pay
        kind: handoff
        title: Pay
        party: bank
        action: payout.execute
        timeout: PT1H
        simulation: { latency: PT1H }
`);

function newEngine(store: StoreV1 = createMemoryStore()) {
  return createEngine({
    store,
    scenarios: [twoApprovers],
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
  });
}

describe('awaiting.decisions', () => {
  it('lists the decisions on an awaited approval, oldest first, and is null on other waits', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(scope, { scenario_id: twoApprovers.id, inputs: {} });
    expect(run.awaiting).toMatchObject({ kind: 'approval', step: 'release', decisions: [] });

    const first = await engine.signal(scope, run.id, {
      kind: 'approval',
      step: 'release',
      decision: 'approve',
      approver: 'ops:alice',
      label: 'Alice (ops)',
      note: 'checked the invoice',
      credential_id: 'key_alice',
    });
    await engine.advanceTestClock(scope.account, 60);
    const waiting = await engine.getRun(scope, run.id);
    const alice = {
      actor: 'ops:alice',
      decision: 'approve',
      label: 'Alice (ops)',
      note: 'checked the invoice',
      at: first.run.updated_at,
    };
    expect(waiting.awaiting).toMatchObject({ approvals: 1, decisions: [alice] });
    expect(JSON.stringify(waiting)).not.toContain('key_alice');
    expect(Object.keys(waiting.awaiting!)).toEqual([
      'kind',
      'step',
      'deadline',
      'party',
      'approvers',
      'quorum',
      'approvals',
      'decisions',
    ]);

    const second = await engine.signal(scope, run.id, {
      kind: 'approval',
      step: 'release',
      decision: 'approve',
      approver: 'finance:bob',
    });
    expect(second.run.awaiting).toMatchObject({ kind: 'timer', decisions: null });
    await engine.advanceTestClock(scope.account, 600);
    const paying = await engine.getRun(scope, run.id);
    expect(paying.awaiting).toMatchObject({ kind: 'handoff', step: 'pay', decisions: null });
    const listed = await engine.listRuns(scope, { awaiting: 'handoff' });
    expect(listed.data.map((item) => item.awaiting?.decisions)).toEqual([null]);
  });

  it('keeps a rejection with its note, and reads decisions of a record stored without them', async () => {
    const store = createMemoryStore();
    const engine = newEngine(store);
    const { run } = await engine.createRun(scope, { scenario_id: twoApprovers.id, inputs: {} });
    await engine.signal(scope, run.id, {
      kind: 'approval',
      step: 'release',
      decision: 'approve',
      approver: 'ops:alice',
    });
    const expected = (await engine.getRun(scope, run.id)).awaiting;
    expect(expected?.decisions).toEqual([
      { actor: 'ops:alice', decision: 'approve', label: null, note: null, at: expect.any(String) },
    ]);

    // A record written before `decisions` existed (e.g. by an older host).
    await store.transaction(async (tx) => {
      const stored = (await tx.getRun(scope, run.id))!;
      const older = Object.fromEntries(
        Object.entries(stored.record.awaiting!).filter(([key]) => key !== 'decisions'),
      ) as unknown as AwaitingRecord;
      const record = { ...stored.record, awaiting: older } satisfies RunRecord;
      await tx.updateRun({ ...stored, version: stored.version + 1, record }, stored.version);
    });
    expect((await engine.getRun(scope, run.id)).awaiting).toEqual(expected);

    const rejected = await engine.signal(scope, run.id, {
      kind: 'approval',
      step: 'release',
      decision: 'reject',
      approver: 'finance:bob',
      note: 'wrong account',
    });
    expect(rejected.run.status).toBe('faulted');
    expect(rejected.run.awaiting).toBeNull();
  });
});
