// Batch commit on PostgreSQL: single-write units of work that allow it (`batch`) have their
// transition writes committed together, several runs in one statement, each run's write
// still whole by itself: a conflict fails that write alone, and the engine retries it alone.
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createEngine,
  isStoreError,
  partnerIdempotencyKey,
  type Scope,
  type StoreV1,
  type TransitionWrite,
} from '@programrun/engine';
import { createPostgresStore, type SqlStore } from '../src/index.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './support/test-database.js';
import { WALLET_LIVE_INPUTS } from './support/wallet-signals.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
const scope: Scope = { account: 'acct_batch', environment: 'live' };
const BATCHED = { singleWrite: true, batch: { maxWaitMs: 50 } } as const;

/** How many runs each transition write statement carried, in the order sent. */
const batches: number[] = [];
const schema = freshSchema();
const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 12 });
let store: SqlStore;

beforeAll(async () => {
  // Every statement of the pool's clients passes here: a write's first parameter is its rows.
  const connect = pool.connect.bind(pool);
  (pool as { connect: unknown }).connect = async () => {
    const client = await connect();
    if (!(client as { counted?: true }).counted) {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
        const config = args[0] as { text?: string; values?: unknown[] } | string;
        if (typeof config === 'object' && config.text?.startsWith('WITH w AS'))
          batches.push((JSON.parse(config.values![0] as string) as unknown[]).length);
        return query(...args);
      };
      (client as { counted?: true }).counted = true;
    }
    return client;
  };
  store = await createPostgresStore({ pool, schema });
});

afterAll(async () => {
  await store.close();
  await pool.end();
  await dropSchema(schema);
});

/** `count` live runs awaiting their screening. */
async function createdRuns(count: number): Promise<string[]> {
  const engine = createEngine({ store, scenarios });
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_LIVE_INPUTS,
    });
    ids.push(run.id);
  }
  return ids;
}

/** The run moved one version on, with one record and one timer of its own, from `expected`. */
async function nextWrite(target: StoreV1, id: string, expected?: number): Promise<TransitionWrite> {
  const run = (await target.transaction((tx) => tx.getRun(scope, id)))!;
  const sequence = run.last_sequence + 1;
  return {
    scope,
    run: { ...run, version: run.version + 1, last_sequence: sequence },
    expectedVersion: expected ?? run.version,
    records: [
      {
        ...(await target.transaction((tx) => tx.listRecords(scope, id)))[0]!,
        sequence,
        id: `evt_batch_${id}_${sequence}`,
        type: 'program_run.note',
        data: { batch: true },
        prev: run.record.evidence.chain_head,
        hash: `sha256:${'0'.repeat(64)}`,
      },
    ],
    deliveriesDueAt: run.created_at,
    scheduleTimers: [
      {
        id: `tmr_batch_${id}_${sequence}`,
        run_id: id,
        account: scope.account,
        environment: scope.environment,
        kind: 'wait',
        step: 'batch',
        attempt: 1,
        due_at: '2030-01-01T00:00:00.000Z',
        payload: {},
        status: 'pending',
      },
    ],
    cancelTimers: [],
    firedTimer: null,
    closeHandoffJobs: null,
    insertHandoffJobs: [],
    settleHandoffJob: null,
  };
}

const written = async (id: string) => {
  const [run, records, timers] = await store.transaction(async (tx) => [
    await tx.getRun(scope, id),
    await tx.listRecords(scope, id),
    await tx.pendingTimers(id),
  ]);
  return { version: run!.version, records: records.length, timers: timers.length };
};

describe('batch commit on PostgreSQL', () => {
  it('writes runs that arrive together in one statement, each whole by itself', async () => {
    const ids = await createdRuns(6);
    const before = await Promise.all(ids.map(written));
    // The third run moved on meanwhile: its write expects a version that is gone.
    const writes = await Promise.all(
      ids.map((id, index) => nextWrite(store, id, index === 2 ? 0 : undefined)),
    );
    batches.length = 0;
    const results = await Promise.allSettled(
      writes.map((write) => store.transaction((tx) => tx.writeTransition(write), BATCHED)),
    );
    // Together: fewer statements than writes, one of them carrying several runs.
    expect(batches.reduce((sum, size) => sum + size, 0)).toBe(6);
    expect(Math.max(...batches)).toBeGreaterThan(1);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const conflict = (results[2] as PromiseRejectedResult).reason as unknown;
    expect(isStoreError(conflict, 'version_conflict')).toBe(true);
    for (const [index, id] of ids.entries()) {
      const now = await written(id);
      // The conflicting run is untouched; every other one has its record and timer.
      const moved = index === 2 ? 0 : 1;
      expect(now).toEqual({
        version: before[index]!.version + moved,
        records: before[index]!.records + moved,
        timers: before[index]!.timers + moved,
      });
    }
  });

  it('refuses a second write of a unit whose write another unit sent', async () => {
    const [id] = await createdRuns(1);
    const write = await nextWrite(store, id!);
    const attempt = store.transaction(async (tx) => {
      await tx.writeTransition(write);
      await tx.writeTransition({ ...write, expectedVersion: write.run.version });
    }, BATCHED);
    await expect(attempt).rejects.toThrow(/wrote again after its write committed/);
    // The first write stays, as a single-write unit of work's write does.
    expect((await written(id!)).version).toBe(write.run.version);
  });

  it('answers many engine signals at once in fewer statements, every transition applied', async () => {
    const engine = createEngine({ store, scenarios, batch: { maxWaitMs: 20 } });
    const ids = await createdRuns(12);
    batches.length = 0;
    const results = await Promise.all(
      ids.map((id) => {
        const key = partnerIdempotencyKey(id, 'screen_destination', 1);
        return engine.signal(scope, id, {
          kind: 'handoff',
          step: 'screen_destination',
          outcome: 'confirmed',
          reference: `ref_${key}`,
          data: { risk: 'low' },
          idempotency_key: key,
        });
      }),
    );
    expect(results.every((result) => result.applied)).toBe(true);
    expect(batches.reduce((sum, size) => sum + size, 0)).toBe(12);
    expect(batches.length).toBeLessThan(12);
    for (const id of ids)
      expect((await engine.getRun(scope, id)).awaiting).toMatchObject({ step: 'release_approval' });
  });
});
