// What the handoff tests share: a one-handoff scenario, a live engine over a memory store
// with a virtual live clock, and readers of a run's records and jobs.
import { compile, type CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  seededIds,
  type AdjustableClock,
  type Engine,
  type EngineOptions,
  type HandoffJobRow,
  type LifecycleRecord,
  type Scope,
  type StoreV1,
} from '../../src/index.js';

export const START = '2026-03-02T09:00:00.000Z';
export const live: Scope = { account: 'acct_live', environment: 'live' };
export const test: Scope = { account: 'acct_test', environment: 'test' };

/** One handoff to `bank` (timeout ten minutes, a timeout faults the run), then done. */
export const PAYOUT: CompiledScenario = compile(`scenario: partner-payout
version: v1
title: Partner payout
summary: One payout handed to the bank.
family: bank_payout
asset_track: public_demo
inputs: { type: object, properties: { amount: { type: string } }, required: [amount] }
example_inputs: { amount: '10.00' }
parties:
  bank: { name: Bank, role: banking, simulation: { latency: PT5S } }
stages:
  - id: payout
    title: Payout
    steps:
      - id: pay
        kind: handoff
        title: Pay
        party: bank
        action: payout.execute
        request: { amount: inputs.amount }
        timeout: PT10M
        on_timeout: fault
        simulation: { data: { settled: 'true' } }
`);

/** An engine and what its tests reach for. */
export interface Harness {
  readonly engine: Engine;
  readonly store: StoreV1;
  /** The live clock (virtual: leases, breakers and backoff move only when told). */
  readonly clock: AdjustableClock;
  /** Moves the live clock `ms` forward. */
  readonly advance: (ms: number) => void;
}

/** A live engine over a (shared, when given) memory store, on a virtual live clock. */
export function harness(
  options: Partial<EngineOptions> & { readonly clock?: AdjustableClock } = {},
): Harness {
  const clock = options.clock ?? createVirtualClock(START);
  const store = options.store ?? createMemoryStore();
  const engine = createEngine({
    scenarios: [PAYOUT],
    testClock: createVirtualClock(START),
    ids: seededIds('handoffs'),
    ...options,
    store,
    clock,
  });
  return {
    engine,
    store,
    clock,
    advance: (ms) => clock.advanceTo(new Date(clock.now().getTime() + ms)),
  };
}

/** Creates a payout run in `scope`. */
export async function createPayout(engine: Engine, scope: Scope = live, key?: string) {
  const { run } = await engine.createRun(scope, {
    scenario_id: PAYOUT.id,
    inputs: { amount: '10.00' },
    ...(key ? { idempotency_key: key } : {}),
  });
  return run;
}

/** The run's record types, in order. */
export async function typesOf(engine: Engine, scope: Scope, runId: string): Promise<string[]> {
  return (await engine.listEvents(scope, runId)).map((record) => record.type);
}

/** The run's records of one type. */
export async function recordsOf(
  engine: Engine,
  scope: Scope,
  runId: string,
  type: string,
): Promise<LifecycleRecord[]> {
  return (await engine.listEvents(scope, runId)).filter((record) => record.type === type);
}

/** The run's job rows, read in one transaction. */
export function jobsOf(store: StoreV1, runId: string): Promise<HandoffJobRow[]> {
  return store.transaction((tx) => tx.handoffJobsOfRun(runId));
}

/** A promise with its resolve, for connectors that wait on the test. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}
