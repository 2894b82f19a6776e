// Stopping a host gives its leases back: handoff calls still in flight after the grace are
// aborted and their jobs freed (the call count kept, a job another worker took over left
// alone); the scheduler fires no more timers and frees those it claimed but did not fire.
import { describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  createVirtualClock,
  startScheduler,
  type HandoffAnswer,
  type StoreV1,
} from '../../src/index.js';
import {
  START,
  createPayout,
  deferred,
  harness,
  jobsOf,
  live,
  recordsOf,
  test,
} from './harness.js';

/** A store whose transactions call `spy` with each operation's name before running it. */
function spiedStore(store: StoreV1, spy: (operation: string) => void): StoreV1 {
  return {
    ...store,
    specificationVersion: store.specificationVersion,
    name: store.name,
    close: () => store.close(),
    transaction: (work) =>
      store.transaction((tx) =>
        work(
          new Proxy(tx, {
            get(target, property, receiver) {
              const value: unknown = Reflect.get(target, property, receiver);
              if (typeof value !== 'function') return value;
              return (...args: unknown[]) => {
                spy(String(property));
                return (value as (...a: unknown[]) => unknown).apply(target, args);
              };
            },
          }),
        ),
      ),
  };
}

/** Claims every due timer of `environment` at `now` (what another host would get). */
const claimableTimers = (store: StoreV1, environment: 'live' | 'test', now: Date) =>
  store.transaction((tx) =>
    tx.claimTimers({
      environment,
      due_at: now.toISOString(),
      lease_now: now.toISOString(),
      lease_until: new Date(now.getTime() + 1_000).toISOString(),
      limit: 100,
    }),
  );

describe('stopping gives leases back', () => {
  it('aborts a call still in flight after the grace and frees its job, the call count kept', async () => {
    const store = createMemoryStore();
    const clock = createVirtualClock(START);
    const called = deferred<AbortSignal>();
    const hostA = harness({
      store,
      clock,
      handoffs: { pollIntervalMs: 3_600_000 },
      connectors: {
        // A partner that never answers and ignores the abort.
        bank: (_request, context) => {
          called.resolve(context.signal);
          return new Promise<HandoffAnswer>(() => undefined);
        },
      },
    });
    const workers = hostA.engine.startHandoffWorkers();
    const run = await createPayout(hostA.engine);
    const signal = await called.promise;
    expect((await jobsOf(store, run.id))[0]).toMatchObject({
      calls: 1,
      lease_until: expect.any(String),
    });

    const began = performance.now();
    await workers.stop({ graceMs: 20 });
    // Well before the lease (30 s) or the call's own abort.
    expect(performance.now() - began).toBeLessThan(2_000);
    expect(signal.aborted).toBe(true);
    expect((await jobsOf(store, run.id))[0]).toMatchObject({
      status: 'queued',
      calls: 1,
      lease_owner: null,
      lease_until: null,
      last_error: null,
    });
    // Nothing was recorded of the aborted call: the run still waits on the handoff.
    expect(await recordsOf(hostA.engine, live, run.id, 'program_run.handoff.attempted')).toEqual(
      [],
    );
    expect((await hostA.engine.getRun(live, run.id)).awaiting?.step).toBe('pay');

    // Another host calls it at once (no lease to wait out): the next call, the same key.
    const seen: number[] = [];
    const hostB = harness({
      store,
      clock,
      connectors: {
        bank: (_request, context) => {
          seen.push(context.attempt);
          return Promise.resolve({ outcome: 'confirmed', reference: 'FROM-B' });
        },
      },
    });
    expect(await hostB.engine.runDueHandoffs('live')).toBe(1);
    expect(seen).toEqual([2]);
    expect((await hostB.engine.getRun(live, run.id)).status).toBe('completed');
  });

  it('leaves alone a job another worker took over after its lease ended', async () => {
    const store = createMemoryStore();
    const clock = createVirtualClock(START);
    const called = deferred<void>();
    const hostA = harness({
      store,
      clock,
      handoffs: { pollIntervalMs: 3_600_000 },
      connectors: {
        bank: () => {
          called.resolve();
          return new Promise<HandoffAnswer>(() => undefined);
        },
      },
    });
    const workers = hostA.engine.startHandoffWorkers();
    const run = await createPayout(hostA.engine);
    await called.promise;
    // A's lease ends (on the live clock) and B takes the job over, its call still out.
    hostA.advance(30_001);
    const bCalled = deferred<void>();
    const hostB = harness({
      store,
      clock,
      connectors: {
        bank: () => {
          bCalled.resolve();
          return new Promise<HandoffAnswer>(() => undefined);
        },
      },
    });
    const bWorking = hostB.engine.runDueHandoffs('live');
    await bCalled.promise;
    const taken = (await jobsOf(store, run.id))[0]!;
    expect(taken).toMatchObject({ calls: 2, lease_owner: expect.any(String) });

    await workers.stop({ graceMs: 0 });
    expect((await jobsOf(store, run.id))[0]).toEqual(taken);
    void bWorking;
  });

  it('gives back a job claimed while stopping without calling it', async () => {
    const calls: number[] = [];
    const { engine, store } = harness({
      handoffs: { pollIntervalMs: 3_600_000 },
      connectors: {
        bank: (_request, context) => {
          calls.push(context.attempt);
          return Promise.resolve({ outcome: 'confirmed', reference: 'PAY-1' });
        },
      },
    });
    const run = await createPayout(engine);
    const workers = engine.startHandoffWorkers();
    // Stopping at once: the claim already under way still leases the job; it is freed uncalled.
    await workers.stop({ graceMs: 0 });
    expect(calls).toEqual([]);
    expect((await jobsOf(store, run.id))[0]).toMatchObject({
      status: 'queued',
      calls: 1,
      lease_owner: null,
      lease_until: null,
    });
  });

  it('the scheduler fires no more timers once stopping and frees those it claimed', async () => {
    const controller = new AbortController();
    let armed = false;
    const memory = createMemoryStore();
    // The first timer fired stops the scheduler's pass (a SIGTERM in the middle of a batch).
    const store = spiedStore(memory, (operation) => {
      if (armed && operation === 'writeTransition') controller.abort();
    });
    const { engine, clock, advance } = harness({ store });
    const runs = [];
    for (let index = 0; index < 4; index += 1) runs.push(await createPayout(engine));
    advance(11 * 60_000); // every handoff's ten-minute timeout is due
    armed = true;
    expect(await engine.runDueTimers('live', { signal: controller.signal })).toBe(1);
    const statuses = await Promise.all(
      runs.map(async (run) => (await engine.getRun(live, run.id)).status),
    );
    expect(statuses.filter((status) => status === 'faulted')).toHaveLength(1);
    // The three others are free for any host now, long before their lease (60 s) ends.
    expect(await claimableTimers(memory, 'live', clock.now())).toHaveLength(3);
  });

  it('the scheduler frees the sandbox jobs it claimed but did not settle', async () => {
    const testClock = createVirtualClock(START);
    const controller = new AbortController();
    let armed = false;
    const memory = createMemoryStore();
    // The first simulated answer settled (its transition writes the job) stops the pass.
    const store = spiedStore(memory, (operation) => {
      if (armed && operation === 'writeTransition') controller.abort();
    });
    const { engine } = harness({ store, testClock });
    const runs = [];
    for (let index = 0; index < 3; index += 1) runs.push(await createPayout(engine, test));
    testClock.advanceTo(new Date(Date.parse(START) + 6_000)); // the simulated bank answers after 5 s
    armed = true;
    expect(await engine.runDueTimers('test', { signal: controller.signal })).toBe(1);
    const jobs = (await Promise.all(runs.map((run) => jobsOf(memory, run.id)))).flat();
    expect(jobs.filter((job) => job.status === 'closed')).toHaveLength(1);
    const open = jobs.filter((job) => job.status !== 'closed');
    expect(open).toHaveLength(2);
    for (const job of open) expect(job).toMatchObject({ lease_owner: null, lease_until: null });
  });

  it('scheduler.stop() resolves with nothing leased, in flight or not', async () => {
    const called = deferred<void>();
    const { engine, store } = harness({
      handoffs: { pollIntervalMs: 5 },
      connectors: {
        bank: () => {
          called.resolve();
          return new Promise<HandoffAnswer>(() => undefined);
        },
      },
    });
    const run = await createPayout(engine);
    const scheduler = startScheduler(engine, { intervalMs: 5 });
    await called.promise;
    await scheduler.stop({ graceMs: 10 });
    expect((await jobsOf(store, run.id))[0]).toMatchObject({
      status: 'queued',
      lease_owner: null,
      lease_until: null,
    });
  });
});
