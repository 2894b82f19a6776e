// The pure kernel, without a store: what a transition schedules (planTimers), which
// timers survive it (reconcileTimers), how stages move (advanceStages), the run record
// (buildRunRecord) and why a signal changed nothing (explainRefusal).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario, RunState } from '@programrun/dsl';
import { partnerIdempotencyKey } from '../src/handoffs/partner-key.js';
import { reconcileTimers } from '../src/kernel/reconcile-timers.js';
import { buildRunRecord } from '../src/runs/build-run-record.js';
import type { RunRecord } from '../src/runs/run-record.js';
import { advanceStages, initialStages } from '../src/runs/stage-progress.js';
import { explainRefusal } from '../src/signals/explain-refusal.js';
import type { StoredRun } from '../src/store/run-spec.js';
import type { TimerRow } from '../src/store/timer-spec.js';
import { planTimers } from '../src/time/timer-plan.js';
import { catalogueScenarios, WALLET_INPUTS } from './scenarios.js';

const NOW = new Date('2026-03-02T09:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

let wallet: CompiledScenario;
beforeAll(async () => {
  wallet = (await catalogueScenarios()).find((scenario) => scenario.id === 'wallet-delivery@v1')!;
});

/** A run of wallet-delivery@v1 started at NOW, through the pure kernel only. */
function startedWallet(environment: 'test' | 'live' = 'test') {
  const started = wallet.start({ environment, inputs: WALLET_INPUTS });
  const plan = planTimers({
    compiled: wallet,
    runId: 'prun_kernel',
    account: 'acct_kernel',
    environment,
    now: NOW,
    facts: started.facts,
    context: started.snapshot.context,
  });
  const stages = advanceStages(
    initialStages(wallet.graph),
    plan.facts,
    started.state,
    NOW.toISOString(),
  );
  const record = buildRunRecord({
    id: 'prun_kernel',
    compiled: wallet,
    environment,
    snapshot: started.snapshot,
    state: started.state,
    stages,
    pendingTimers: plan.timers,
    chainHead: null,
    sessionId: null,
    sourcePath: null,
    inputs: WALLET_INPUTS,
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    previous: null,
  });
  return { started, plan, stages, record };
}

describe('planTimers', () => {
  it('gives a handoff its timeout and its partner key', () => {
    const { plan } = startedWallet('test');
    const requested = plan.facts.find((fact) => fact.type === 'handoff.requested')!;
    expect(requested.step).toBe('screen_destination');
    expect(requested.data).toMatchObject({
      idempotency_key: partnerIdempotencyKey('prun_kernel', 'screen_destination', 1),
      deadline: at(10 * 60_000), // timeout: PT10M
    });
    // The simulated answer is a sandbox handoff job now (planHandoffJobs), not a timer.
    expect(
      plan.timers.map(({ kind, step, attempt, due_at }) => ({ kind, step, attempt, due_at })),
    ).toEqual([
      { kind: 'timeout', step: 'screen_destination', attempt: 1, due_at: at(10 * 60_000) },
    ]);
  });

  it('schedules the same timers in the live environment', () => {
    const { plan } = startedWallet('live');
    expect(plan.timers.map((timer) => timer.kind)).toEqual(['timeout']);
  });

  it('is deterministic: the same facts at the same time give the same timers and ids', () => {
    expect(startedWallet().plan).toEqual(startedWallet().plan);
    const ids = startedWallet().plan.timers.map((timer) => timer.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^tmr_[0-9a-f]+$/.test(id))).toBe(true);
  });

  it('gives an approval its expiry deadline', () => {
    const plan = planTimers({
      compiled: wallet,
      runId: 'prun_kernel',
      account: 'acct_kernel',
      environment: 'test',
      now: NOW,
      facts: [
        {
          type: 'approval.requested',
          stage: 'release',
          step: 'release_approval',
          data: { expires: 'PT4H', attempt: 2 },
        },
      ],
      context: wallet.start({ environment: 'test', inputs: WALLET_INPUTS }).snapshot.context,
    });
    expect(plan.facts[0]!.data.deadline).toBe(at(4 * 3600_000));
    expect(plan.timers).toMatchObject([{ kind: 'expiry', step: 'release_approval', attempt: 2 }]);
  });
});

const timerArbitrary = fc.record({
  id: fc.uuid(),
  step: fc.constantFrom('a', 'b'),
  attempt: fc.integer({ min: 1, max: 3 }),
});
const toTimer = ({ id, step, attempt }: { id: string; step: string; attempt: number }) =>
  ({
    id,
    run_id: 'prun_kernel',
    account: 'acct_kernel',
    environment: 'test',
    kind: 'timeout',
    step,
    attempt,
    due_at: NOW.toISOString(),
    payload: {},
    status: 'pending',
  }) satisfies TimerRow;

describe('reconcileTimers', () => {
  it('keeps only timers of the awaited step and attempt, and settles the fired one apart', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(timerArbitrary, { selector: (timer) => timer.id, maxLength: 8 }),
        fc.array(timerArbitrary, { maxLength: 4 }),
        fc.option(
          fc.record({ step: fc.constantFrom('a', 'b'), attempt: fc.integer({ min: 1, max: 3 }) }),
        ),
        fc.boolean(),
        (existingSpecs, plannedSpecs, awaitedSpec, fireFirst) => {
          const existing = existingSpecs.map(toTimer);
          const planned = plannedSpecs.map(toTimer);
          const awaiting: RunState['awaiting'] = awaitedSpec && {
            kind: 'handoff',
            party: 'custodian',
            ...awaitedSpec,
          };
          const firedTimerId = fireFirst ? existing[0]?.id : undefined;
          const { schedule, cancel, keep } = reconcileTimers({
            existing,
            planned,
            awaiting,
            firedTimerId,
          });
          const awaited = (timer: TimerRow) =>
            awaiting !== null && timer.step === awaiting.step && timer.attempt === awaiting.attempt;
          expect(schedule).toEqual(planned.filter(awaited));
          expect(keep.every(awaited)).toBe(true);
          expect(cancel.some(awaited)).toBe(false);
          expect([...keep, ...cancel].map((timer) => timer.id).sort()).toEqual(
            existing
              .filter((timer) => timer.id !== firedTimerId)
              .map((timer) => timer.id)
              .sort(),
          );
        },
      ),
    );
  });

  it('cancels a stale deadline of an earlier attempt', () => {
    const stale = toTimer({ id: 'old', step: 'a', attempt: 1 });
    const current = toTimer({ id: 'new', step: 'a', attempt: 2 });
    const result = reconcileTimers({
      existing: [stale],
      planned: [current],
      awaiting: { kind: 'approval', step: 'a', party: null, attempt: 2 },
    });
    expect(result).toEqual({ schedule: [current], cancel: [stale], keep: [] });
  });
});

describe('advanceStages', () => {
  const stage = (id: string) => ({ type: 'stage.started', stage: id, step: null, data: {} });
  const active: RunState = {
    status: 'active',
    stage: null,
    step: null,
    compensating: false,
    awaiting: null,
    ending: null,
  };

  it('starts, completes and rewinds stages, keeping the first start time', () => {
    const stages = initialStages(wallet.graph);
    const [first, second] = stages.map((item) => item.id);
    const t1 = at(0);
    const t2 = at(1000);
    let now = advanceStages(stages, [stage(first!)], active, t1);
    expect(now[0]).toMatchObject({ status: 'active', started_at: t1, completed_at: null });
    now = advanceStages(
      now,
      [{ type: 'stage.completed', stage: first!, step: null, data: {} }, stage(second!)],
      active,
      t2,
    );
    expect(now[0]).toMatchObject({ status: 'completed', started_at: t1, completed_at: t2 });
    expect(now[1]).toMatchObject({ status: 'active', started_at: t2 });
    now = advanceStages(
      now,
      [{ type: 'stage.rewound', stage: second!, step: null, data: {} }, stage(first!)],
      active,
      at(2000),
    );
    expect(now[1]).toMatchObject({ status: 'pending', completed_at: null });
    expect(now[0]).toMatchObject({ status: 'active', started_at: t1, completed_at: null });
  });

  it('skips pending stages when the run completes, and ends active ones with a fault', () => {
    const stages = advanceStages(initialStages(wallet.graph), [stage('intake')], active, at(0));
    const completed = advanceStages(stages, [], { ...active, status: 'completed' }, at(5));
    expect(completed.slice(1).every((item) => item.status === 'skipped')).toBe(true);
    const faulted = advanceStages(stages, [], { ...active, status: 'faulted' }, at(5));
    expect(faulted[0]).toMatchObject({ status: 'faulted', completed_at: at(5) });
    expect(faulted.slice(1).every((item) => item.status === 'pending')).toBe(true);
  });
});

describe('buildRunRecord', () => {
  it('describes a started run: waiting on its first handoff with the timeout as deadline', () => {
    const { record } = startedWallet();
    expect(record).toMatchObject({
      object: 'program_run',
      id: 'prun_kernel',
      livemode: false,
      scenario_id: 'wallet-delivery@v1',
      scenario_digest: wallet.digest,
      status: 'waiting',
      stage: 'intake',
      awaiting: {
        kind: 'handoff',
        step: 'screen_destination',
        deadline: at(10 * 60_000), // the timeout, not the simulated answer
        party: 'chain_analytics',
        approvers: null,
        quorum: null,
        approvals: null,
      },
      outcome: null,
    });
    expect(record.stages[0]).toMatchObject({ id: 'intake', status: 'active' });
  });

  it('is pure: the same input gives the same record', () => {
    expect(startedWallet().record).toEqual(startedWallet().record);
  });
});

describe('explainRefusal', () => {
  const storedRun = (record: RunRecord, snapshot: StoredRun['snapshot']): StoredRun => ({
    id: record.id,
    account: 'acct_kernel',
    environment: 'test',
    version: 1,
    scenario_id: wallet.id,
    status: record.status,
    created_at: record.created_at,
    idempotency_key: null,
    snapshot,
    last_sequence: 1,
    record,
  });

  it('refuses what the run does not wait for, with a stable code and the reason', () => {
    const { record, started } = startedWallet();
    const run = storedRun(record, started.snapshot);
    expect(
      explainRefusal(wallet, run, {
        kind: 'approval',
        step: 'release_approval',
        decision: 'approve',
        approver: 'ops:alice',
      }),
    ).toEqual({
      duplicate: false,
      code: 'step_not_awaiting',
      message:
        'No approval "release_approval" is pending: the run is waiting for handoff "screen_destination".',
    });
    expect(explainRefusal(wallet, run, { kind: 'cancel' })).toMatchObject({
      duplicate: false,
      code: 'cancel_not_allowed',
    });
  });

  it('refuses every signal to a finished run', () => {
    const { record, started } = startedWallet();
    const run = storedRun({ ...record, status: 'completed', awaiting: null }, started.snapshot);
    expect(explainRefusal(wallet, run, { kind: 'cancel' })).toMatchObject({
      code: 'run_finished',
      message: 'The run is completed; it accepts no more signals.',
    });
  });

  it('calls a repeat of a recorded partner answer a duplicate', () => {
    const { record, started } = startedWallet();
    const answered = {
      ...started.snapshot,
      context: {
        ...started.snapshot.context,
        handoffs: {
          screen_destination: {
            outcome: 'confirmed' as const,
            reference: 'ref_1',
            data: {},
            at: NOW.toISOString(),
          },
        },
      },
    };
    const run = storedRun(record, answered);
    const repeat = {
      kind: 'handoff' as const,
      step: 'screen_destination',
      outcome: 'confirmed' as const,
      reference: 'ref_1',
      data: {},
    };
    expect(explainRefusal(wallet, run, repeat)).toEqual({ duplicate: true });
    expect(explainRefusal(wallet, run, { ...repeat, reference: 'ref_2' })).toMatchObject({
      duplicate: false,
      code: 'signal_refused',
    });
  });
});
