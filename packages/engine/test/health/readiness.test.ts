// engine.readiness(): the store answers (within a timeout), its migrations are current, and
// every background loop registered in engine.background runs.
import { describe, expect, it } from 'vitest';
import {
  createEngine,
  createMemoryStore,
  startScheduler,
  type Engine,
  type StoreHealth,
  type StoreV1,
} from '../../src/index.js';

const engineOver = (store: StoreV1): Engine => createEngine({ store, scenarios: [] });

/** A memory store with a `health()` of the test's choosing, counting its calls. */
function withHealth(health: () => Promise<StoreHealth>): StoreV1 & { calls: number } {
  const store = {
    ...createMemoryStore(),
    calls: 0,
    health: () => {
      store.calls += 1;
      return health();
    },
  };
  return store;
}

const READY = {
  ready: true,
  checks: {
    store: { status: 'ok' },
    migrations: { status: 'current', schema_version: null, expected_version: null },
    background: { status: 'running', workers: {} },
  },
};

describe('engine.readiness()', () => {
  it('is ready on a memory store with nothing registered', async () => {
    expect(await engineOver(createMemoryStore()).readiness()).toEqual(READY);
  });

  it('is not ready while the store is unreachable, and ready again after', async () => {
    let down = false;
    const inner = createMemoryStore();
    const flaky: StoreV1 = {
      ...inner,
      transaction: (work) =>
        down ? Promise.reject(new Error('connection refused')) : inner.transaction(work),
    };
    const engine = engineOver(flaky);
    down = true;
    expect(await engine.readiness()).toEqual({
      ready: false,
      checks: {
        ...READY.checks,
        store: { status: 'unreachable' },
        migrations: { status: 'unknown', schema_version: null, expected_version: null },
      },
    });
    down = false;
    expect(await engine.readiness()).toEqual(READY);
  });

  it('reads the schema versions from the store’s health(): current, behind or ahead', async () => {
    for (const [schemaVersion, status, ready] of [
      [7, 'current', true],
      [6, 'behind', false],
      [8, 'ahead', false],
    ] as const) {
      const engine = engineOver(
        withHealth(() => Promise.resolve({ schemaVersion, expectedVersion: 7 })),
      );
      expect(await engine.readiness()).toEqual({
        ready,
        checks: {
          ...READY.checks,
          migrations: { status, schema_version: schemaVersion, expected_version: 7 },
        },
      });
    }
  });

  it('counts a health() that throws, even synchronously, as unreachable', async () => {
    const store = {
      ...createMemoryStore(),
      health: (): Promise<StoreHealth> => {
        throw new Error('no pool');
      },
    };
    expect((await engineOver(store).readiness()).checks.store).toEqual({ status: 'unreachable' });
  });

  it('bounds a store that never answers by the timeout', async () => {
    const engine = engineOver(withHealth(() => new Promise(() => undefined)));
    const started = performance.now();
    const readiness = await engine.readiness({ timeoutMs: 30 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(readiness).toMatchObject({
      ready: false,
      checks: { store: { status: 'timeout' }, migrations: { status: 'unknown' } },
    });
  });

  it('shares one store probe among concurrent calls', async () => {
    let answer: ((health: StoreHealth) => void) | undefined;
    const store = withHealth(() =>
      answer
        ? Promise.resolve({ schemaVersion: 1, expectedVersion: 1 })
        : new Promise((resolve) => (answer = resolve)),
    );
    const engine = engineOver(store);
    const probes = Array.from({ length: 20 }, () => engine.readiness());
    await Promise.resolve();
    await Promise.resolve();
    answer!({ schemaVersion: 1, expectedVersion: 1 });
    const answers = await Promise.all(probes);
    expect(store.calls).toBe(1);
    expect(answers.every((readiness) => readiness.ready)).toBe(true);
    // A later call probes again.
    expect((await engine.readiness()).ready).toBe(true);
    expect(store.calls).toBe(2);
  });
});

describe('engine.background', () => {
  it('lists each name: running while one of its loops runs, stopped once all stopped', () => {
    const { background } = engineOver(createMemoryStore());
    const first = background.started('relay');
    const second = background.started('relay');
    expect(background.status()).toEqual({ relay: 'running' });
    first.stopped();
    first.stopped(); // twice is once
    expect(background.status()).toEqual({ relay: 'running' });
    second.stopped();
    expect(background.status()).toEqual({ relay: 'stopped' });
    background.started('relay');
    expect(background.status()).toEqual({ relay: 'running' });
  });

  it('makes a started then stopped scheduler (and its handoff workers) not ready', async () => {
    const engine = engineOver(createMemoryStore());
    const scheduler = startScheduler(engine, { intervalMs: 60_000 });
    expect(await engine.readiness()).toMatchObject({
      ready: true,
      checks: {
        background: {
          status: 'running',
          workers: { scheduler: 'running', 'handoff-workers': 'running' },
        },
      },
    });
    await scheduler.stop();
    expect(await engine.readiness()).toMatchObject({
      ready: false,
      checks: {
        store: { status: 'ok' },
        background: {
          status: 'stopped',
          workers: { scheduler: 'stopped', 'handoff-workers': 'stopped' },
        },
      },
    });
  });

  it('leaves a scheduler without handoff workers, or over a bare timer source, as it was', async () => {
    const engine = engineOver(createMemoryStore());
    const scheduler = startScheduler(engine, { intervalMs: 60_000, handoffs: false });
    expect(engine.background.status()).toEqual({ scheduler: 'running' });
    await scheduler.stop();
    const bare = startScheduler({ runDueTimers: () => Promise.resolve(0) }, { intervalMs: 60_000 });
    await bare.stop();
    expect(engine.background.status()).toEqual({ scheduler: 'stopped' });
  });
});
