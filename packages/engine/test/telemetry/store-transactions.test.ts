// Store transactions under telemetry: one span per unit of work, its conflict retries as
// an attribute, and the transactions counted by outcome (a retried conflict counted too).
import { context, trace } from '@opentelemetry/api';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createMemoryStore,
  METRIC_NAMES,
  StoreError,
  type Engine,
  type Scope,
  type StoreV1,
} from '../../src/index.js';
import { memoryEngine } from '../memory-engine.js';
import { catalogueScenarios, WALLET_INPUTS } from '../scenarios.js';
import { metering, tracing, useContextManager } from './telemetry-harness.js';

const scope: Scope = { account: 'acct_tx', environment: 'test' };

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});
useContextManager();

let meters: ReturnType<typeof metering>;
afterEach(() => meters.shutdown());

/** A memory store whose next transition loses its compare-and-swap race, once armed. */
function racingStore(): StoreV1 & { arm(): void } {
  const store = createMemoryStore();
  let armed = false;
  return {
    ...store,
    arm: () => void (armed = true),
    transaction: (work) =>
      store.transaction((tx) =>
        work({
          ...tx,
          writeTransition(write) {
            if (!armed) return tx.writeTransition(write);
            armed = false;
            throw new StoreError('version_conflict', `run ${write.run.id} changed`);
          },
        }),
      ),
  };
}

describe('store transactions', () => {
  it('retries a conflict inside one transaction span and counts it', async () => {
    const traces = tracing();
    meters = metering();
    const store = racingStore();
    const engine: Engine = memoryEngine(scenarios, 'store-transactions', {
      store,
      telemetry: { tracerProvider: traces.tracerProvider, meterProvider: meters.meterProvider },
    });
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
    });
    await engine.advanceTestClock(scope.account, 20);
    traces.reset();

    store.arm();
    const request = traces.tracerProvider.getTracer('test').startSpan('request');
    await context.with(trace.setSpan(context.active(), request), () =>
      engine.signal(scope, run.id, {
        kind: 'approval',
        step: 'release_approval',
        decision: 'approve',
        approver: 'ops:alice',
      }),
    );
    request.end();

    const [transaction, ...more] = traces.named('programrun.store.transaction');
    expect(more).toEqual([]);
    expect(transaction!.attributes['programrun.store.conflict_retries']).toBe(1);
    // One signal span per attempt: the first lost the race.
    const signals = traces.named('programrun.run.signal');
    expect(signals.map((span) => span.status.code)).toEqual([2, 0]);

    expect(await meters.sums(METRIC_NAMES.storeConflicts)).toEqual([{ attributes: {}, value: 1 }]);
    const conflicts = (await meters.sums(METRIC_NAMES.storeTransactions)).find(
      (point) => point.attributes['programrun.outcome'] === 'conflict',
    );
    expect(conflicts?.value).toBe(1);
    // The transition is counted once, for the attempt that committed.
    const signalled = (await meters.sums(METRIC_NAMES.transitions)).find(
      (point) => point.attributes['programrun.transition.kind'] === 'signal',
    );
    expect(signalled?.value).toBe(1);
  });
});
