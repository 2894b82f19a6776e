// Connector and outbox metrics: calls and their durations by outcome, the backlog and
// in-flight gauges read from the store, the breaker gauge, and pending deliveries.
import { describe, expect, it } from 'vitest';
import {
  METRIC_NAMES,
  TransientConnectorError,
  type HandoffAnswer,
  type StoreV1,
} from '../../src/index.js';
import { createPayout, deferred, harness, test as testScope } from '../handoffs/harness.js';
import { sdkHarness, valuesOf } from './handoff-telemetry.js';

const bank = (environment: string) => ({
  'programrun.party': 'bank',
  'programrun.environment': environment,
});

describe('connector metrics', () => {
  it('counts calls and times them by party, environment and outcome', async () => {
    const sdk = sdkHarness();
    let calls = 0;
    const { engine, advance } = harness({
      telemetry: sdk.telemetry,
      connectors: {
        bank: () => {
          calls += 1;
          if (calls <= 2)
            return Promise.reject(new TransientConnectorError('http_5xx', 'bad gateway', 502));
          return Promise.resolve({ outcome: 'confirmed' as const, reference: 'PAY' });
        },
      },
    });
    await createPayout(engine);
    for (let call = 0; call < 3; call += 1) {
      await engine.runDueHandoffs('live');
      advance(10_000);
    }
    const counted = await sdk.points(METRIC_NAMES.handoffCalls);
    expect(valuesOf(counted, { ...bank('live'), 'programrun.outcome': 'transient' })).toEqual([2]);
    expect(valuesOf(counted, { ...bank('live'), 'programrun.outcome': 'answered' })).toEqual([1]);
    const timed = await sdk.points(METRIC_NAMES.handoffCallDuration);
    expect(valuesOf(timed, bank('live')).reduce((sum, count) => sum + count, 0)).toBe(3);
    await sdk.shutdown();
  });

  it('counts simulated answers in the test environment, untimed', async () => {
    const sdk = sdkHarness();
    const { engine } = harness({ telemetry: sdk.telemetry });
    await createPayout(engine, testScope);
    await engine.advanceTestClock(testScope.account, 60);
    const counted = await sdk.points(METRIC_NAMES.handoffCalls);
    expect(valuesOf(counted, { ...bank('test'), 'programrun.outcome': 'answered' })).toEqual([1]);
    expect(await sdk.points(METRIC_NAMES.handoffCallDuration)).toEqual([]);
    await sdk.shutdown();
  });

  it('reports queued and in-flight jobs per environment and party from the store', async () => {
    const sdk = sdkHarness();
    const blocked = deferred<HandoffAnswer>();
    let started = 0;
    const { engine } = harness({
      telemetry: sdk.telemetry,
      connectors: {
        bank: {
          connector: () => {
            started += 1;
            return blocked.promise;
          },
          concurrency: 1,
        },
      },
    });
    const gauges = async () => ({
      queued: valuesOf(await sdk.points(METRIC_NAMES.handoffBacklog), bank('live')),
      inFlight: valuesOf(await sdk.points(METRIC_NAMES.handoffInFlight), bank('live')),
    });
    // A configured party is reported when idle.
    expect(await gauges()).toEqual({ queued: [0], inFlight: [0] });
    await createPayout(engine);
    await createPayout(engine);
    await createPayout(engine, testScope);
    expect(await gauges()).toEqual({ queued: [2], inFlight: [0] });
    expect(valuesOf(await sdk.points(METRIC_NAMES.handoffBacklog), bank('test'))).toEqual([1]);

    const working = engine.runDueHandoffs('live');
    while (started === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(await gauges()).toEqual({ queued: [1], inFlight: [1] });
    blocked.resolve({ outcome: 'confirmed', reference: 'PAY' });
    expect(await working).toBe(2);
    expect(await gauges()).toEqual({ queued: [0], inFlight: [0] });
    await sdk.shutdown();
  });

  it('reports this host’s breaker per party: 0 closed, 2 open after failures', async () => {
    const sdk = sdkHarness();
    const { engine } = harness({
      telemetry: sdk.telemetry,
      connectors: {
        bank: {
          connector: () => Promise.reject(new TransientConnectorError('connection', 'refused')),
          breaker: { failureThreshold: 2, cooldownMs: 60_000 },
        },
      },
    });
    const breaker = async () =>
      valuesOf(await sdk.points(METRIC_NAMES.breakerState), { 'programrun.party': 'bank' });
    expect(await breaker()).toEqual([0]);
    await createPayout(engine);
    await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(2);
    expect(await breaker()).toEqual([2]);
    await sdk.shutdown();
  });

  it('leaves out a backlog the store cannot read, without failing the collection', async () => {
    const sdk = sdkHarness();
    const { engine, store } = harness({
      telemetry: sdk.telemetry,
      connectors: {
        bank: () => Promise.resolve({ outcome: 'confirmed' as const, reference: 'PAY' }),
      },
    });
    await createPayout(engine);
    const down: StoreV1 = store;
    const transaction = down.transaction.bind(down);
    (down as { transaction: StoreV1['transaction'] }).transaction = () =>
      Promise.reject(new Error('connection refused'));
    const metrics = await sdk.metrics();
    const names = metrics.map((metric) => metric.descriptor.name);
    expect(names).toContain(METRIC_NAMES.breakerState);
    expect(
      metrics.find((metric) => metric.descriptor.name === METRIC_NAMES.handoffBacklog)
        ?.dataPoints ?? [],
    ).toEqual([]);
    (down as { transaction: StoreV1['transaction'] }).transaction = transaction;
    expect(valuesOf(await sdk.points(METRIC_NAMES.handoffBacklog), bank('live'))).toEqual([1]);
    await sdk.shutdown();
  });

  it('registers no instruments with telemetry off', async () => {
    const sdk = sdkHarness();
    const { engine } = harness({ telemetry: false });
    await createPayout(engine);
    expect(await sdk.metrics()).toEqual([]);
    await sdk.shutdown();
  });
});

describe('outbox backlog', () => {
  it('reports the pending deliveries of each environment', async () => {
    const sdk = sdkHarness();
    const { engine } = harness({ telemetry: sdk.telemetry });
    const pending = async (environment: string) =>
      valuesOf(await sdk.points(METRIC_NAMES.outboxBacklog), {
        'programrun.environment': environment,
      });
    expect(await pending('test')).toEqual([0]);
    expect(await pending('live')).toEqual([0]);
    await engine.webhooks.createEndpoint(testScope, {
      url: 'https://hooks.example.com/programrun',
      enabled_events: ['program_run.created'],
    });
    await createPayout(engine, testScope);
    await createPayout(engine, testScope);
    expect(await pending('test')).toEqual([2]);
    expect(await pending('live')).toEqual([0]);
    // Reading the backlogs makes no spans.
    const spans = sdk.spans().length;
    await sdk.metrics();
    expect(sdk.spans()).toHaveLength(spans);
    await sdk.shutdown();
  });
});
