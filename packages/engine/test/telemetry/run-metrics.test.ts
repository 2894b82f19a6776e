// The engine's run metrics: runs created and finished, transitions by kind and their
// durations, timers fired and how late, and store transactions by outcome.
import { metrics } from '@opentelemetry/api';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  METRIC_NAMES,
  seededIds,
  type Engine,
  type Scope,
} from '../../src/index.js';
import { catalogueScenarios, WALLET_INPUTS } from '../scenarios.js';
import { metering } from './telemetry-harness.js';

const scope: Scope = { account: 'acct_metrics', environment: 'test' };
const T0 = '2026-03-02T09:00:00.000Z';
const wallet = {
  'programrun.scenario.id': 'wallet-delivery@v1',
  'programrun.environment': 'test',
};

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

let meters: ReturnType<typeof metering>;
afterEach(() => meters.shutdown());

function newEngine(clock = createVirtualClock(T0)): Engine {
  meters = metering();
  return createEngine({
    store: createMemoryStore(),
    scenarios,
    testClock: clock,
    ids: seededIds('run-metrics'),
    telemetry: { meterProvider: meters.meterProvider },
  });
}

const create = (engine: Engine, key?: string) =>
  engine.createRun(scope, {
    scenario_id: 'wallet-delivery@v1',
    inputs: WALLET_INPUTS,
    ...(key ? { idempotency_key: key } : {}),
  });

describe('engine metrics', () => {
  it('counts a run from creation to completion, by transition kind', async () => {
    const engine = newEngine();
    const { run } = await create(engine, 'k1');
    await create(engine, 'k1'); // the same creation again: no new run
    await engine.advanceTestClock(scope.account, 20); // the screening partner answers
    await engine.signal(scope, run.id, {
      kind: 'approval',
      step: 'release_approval',
      decision: 'approve',
      approver: 'ops:alice',
    });
    await engine.advanceTestClock(scope.account, 60); // the custodian answers
    expect((await engine.getRun(scope, run.id)).status).toBe('completed');

    expect(await meters.sums(METRIC_NAMES.runsCreated)).toEqual([{ attributes: wallet, value: 1 }]);
    expect(await meters.sums(METRIC_NAMES.runsFinished)).toEqual([
      { attributes: { ...wallet, 'programrun.run.status': 'completed' }, value: 1 },
    ]);
    const transitions = Object.fromEntries(
      (await meters.sums(METRIC_NAMES.transitions)).map(({ attributes, value }) => [
        attributes['programrun.transition.kind'],
        value,
      ]),
    );
    expect(transitions).toEqual({ create: 1, handoff: 2, signal: 1 });

    const durations = await meters.histograms(METRIC_NAMES.transitionDuration);
    expect(durations.reduce((total, point) => total + point.count, 0)).toBe(4);
    expect(durations.every((point) => point.min >= 0 && point.sum < 60)).toBe(true);
    const creates = await meters.histograms(METRIC_NAMES.createDuration);
    expect(creates).toEqual([expect.objectContaining({ attributes: wallet, count: 1 })]);

    const transactions = await meters.sums(METRIC_NAMES.storeTransactions);
    const committed = transactions.find(
      (point) => point.attributes['programrun.outcome'] === 'committed',
    );
    expect(committed?.value).toBeGreaterThan(4);
    expect(await meters.sums(METRIC_NAMES.storeConflicts)).toEqual([]);
  });

  it('counts a refused signal’s transaction as failed, and no transition', async () => {
    const engine = newEngine();
    const { run } = await create(engine);
    await expect(
      engine.signal(scope, run.id, {
        kind: 'approval',
        step: 'release_approval',
        decision: 'approve',
        approver: 'ops:alice',
      }),
    ).rejects.toThrow();
    const failed = (await meters.sums(METRIC_NAMES.storeTransactions)).find(
      (point) => point.attributes['programrun.outcome'] === 'failed',
    );
    expect(failed?.value).toBe(1);
    expect(
      (await meters.sums(METRIC_NAMES.transitions)).map(
        (point) => point.attributes['programrun.transition.kind'],
      ),
    ).toEqual(['create']);
  });

  it('measures how late a timer fired on its environment’s clock', async () => {
    const clock = createVirtualClock(T0);
    const engine = newEngine(clock);
    const { run } = await create(engine);
    await engine.advanceTestClock(scope.account, 20); // now waiting for the release approval
    const due = (await engine.getRun(scope, run.id)).awaiting?.deadline;
    expect(due).toBe('2026-03-02T13:00:20.000Z');
    // The approval expires at `due`; the timers run only 5 s later.
    clock.advanceTo(new Date(Date.parse(T0) + 4 * 3600_000 + 5_000));
    expect(await engine.runDueTimers('test')).toBe(1);

    expect(await meters.sums(METRIC_NAMES.timersFired)).toEqual([
      { attributes: { 'programrun.environment': 'test' }, value: 1 },
    ]);
    expect(await meters.histograms(METRIC_NAMES.timerLag)).toEqual([
      { attributes: { 'programrun.environment': 'test' }, count: 1, sum: 5, min: 5 },
    ]);
    const after = await engine.getRun(scope, run.id);
    const transitions = await meters.sums(METRIC_NAMES.transitions);
    expect(
      transitions.find((point) => point.attributes['programrun.transition.kind'] === 'timer')
        ?.value,
    ).toBe(1);
    expect(await meters.sums(METRIC_NAMES.runsFinished)).toEqual([
      { attributes: { ...wallet, 'programrun.run.status': after.status }, value: 1 },
    ]);
  });

  it('records nothing with telemetry off, even with a global meter provider', async () => {
    meters = metering();
    metrics.setGlobalMeterProvider(meters.meterProvider);
    try {
      const engine = createEngine({
        store: createMemoryStore(),
        scenarios,
        testClock: createVirtualClock(T0),
        telemetry: false,
      });
      await create(engine);
      expect(await meters.sums(METRIC_NAMES.runsCreated)).toEqual([]);
      // The global provider is the default: the same creation is counted.
      await create(createEngine({ store: createMemoryStore(), scenarios }));
      expect(await meters.sums(METRIC_NAMES.runsCreated)).toEqual([
        { attributes: wallet, value: 1 },
      ]);
    } finally {
      metrics.disable();
    }
  });
});
