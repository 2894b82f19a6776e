import { expect, it } from 'vitest';
import type { AwaitingRecord, RunRecord } from '../runs/run-record.js';
import type { RunQuery, StoredRun, StoreV1 } from '../store/store-v1.js';
import { otherAccount, otherEnvironment, scope, storedRun, type WithStore } from './fixtures.js';

/** What the record filters read of a run, and the fields the other filters read. */
interface FilteredRun {
  readonly at: string;
  readonly stage?: string | null;
  readonly awaiting?: AwaitingRecord['kind'] | null;
  readonly session_id?: string | null;
  readonly source_path?: string | null;
  readonly idempotency_key?: string | null;
  readonly status?: StoredRun['status'];
  readonly scenario_id?: string;
  readonly version?: number;
}

/** A stored run whose record carries the fields `stage`, `awaiting` and `q` read. */
function filteredRun(id: string, fields: FilteredRun, where = scope): StoredRun {
  const base = storedRun(id, { at: fields.at });
  const awaiting = fields.awaiting ?? null;
  const record = {
    ...base.record,
    status: fields.status ?? (awaiting === null ? 'running' : 'waiting'),
    stage: fields.stage ?? null,
    awaiting:
      awaiting === null
        ? null
        : { kind: awaiting, step: `${awaiting}_step`, deadline: null, party: null },
    session_id: fields.session_id ?? null,
    source_path: fields.source_path ?? null,
  } as unknown as RunRecord;
  return {
    ...base,
    ...where,
    version: fields.version ?? 1,
    scenario_id: fields.scenario_id ?? base.scenario_id,
    status: record.status,
    idempotency_key: fields.idempotency_key ?? null,
    record,
  };
}

const day = (n: number): string => `2026-02-${String(n).padStart(2, '0')}T00:00:00.000Z`;

/** Six runs of `scope`, oldest first. */
const SPECS: Readonly<Record<string, FilteredRun>> = {
  prun_f1: {
    at: day(1),
    stage: 'intake',
    awaiting: 'handoff',
    session_id: 'sess_a',
    source_path: '/checkout',
    idempotency_key: 'key-f1',
  },
  prun_f2: {
    at: day(2),
    stage: 'release',
    awaiting: 'approval',
    session_id: 'sess_a',
    idempotency_key: 'prun_f5',
  },
  prun_f3: {
    at: day(3),
    stage: 'release',
    awaiting: 'approval',
    scenario_id: 'bank-payout@v1',
    source_path: '/payouts',
  },
  prun_f4: { at: day(4), stage: 'delivery', awaiting: 'timer' },
  prun_f5: { at: day(5), stage: 'release', status: 'completed' },
  prun_f6: { at: day(6), stage: 'release', awaiting: 'approval', session_id: '/checkout' },
};

const RUNS = Object.entries(SPECS).map(([id, fields]) => filteredRun(id, fields));

/** Look-alikes in another account and environment, which no filter of `scope` may return. */
const LOOK_ALIKES = [
  filteredRun(
    'prun_x1',
    {
      at: day(7),
      stage: 'release',
      awaiting: 'approval',
      session_id: 'sess_a',
      source_path: '/checkout',
      idempotency_key: 'key-f1',
    },
    otherAccount,
  ),
  filteredRun(
    'prun_x2',
    { at: day(7), stage: 'intake', awaiting: 'handoff', session_id: 'sess_a' },
    otherEnvironment,
  ),
];

async function seeded(store: StoreV1): Promise<void> {
  await store.transaction(async (tx) => {
    for (const run of [...RUNS, ...LOOK_ALIKES]) await tx.insertRun(run);
  });
}

const ids = (store: StoreV1, query: Partial<RunQuery>) =>
  store.transaction(async (tx) => {
    const page = await tx.listRuns(scope, { limit: 10, ...query });
    return { ids: page.data.map((run) => run.id), has_more: page.has_more };
  });

const only = (...list: string[]) => ({ ids: list, has_more: false });

/**
 * The Store spec v1 contract for the run list filters that read a run's record: `stage`,
 * `awaiting` and `q` (exact on id, session id, creating Idempotency-Key, source path),
 * alone, together and with the other filters and the cursor; current after updates.
 */
export function defineRunFilterContract(withStore: WithStore): void {
  it('lists runs by current stage and by the kind of step they wait on', () =>
    withStore(async (store) => {
      await seeded(store);
      expect(await ids(store, { stage: 'release' })).toEqual(
        only('prun_f6', 'prun_f5', 'prun_f3', 'prun_f2'),
      );
      expect(await ids(store, { stage: 'intake' })).toEqual(only('prun_f1'));
      expect(await ids(store, { stage: 'nowhere' })).toEqual(only());
      expect(await ids(store, { awaiting: 'approval' })).toEqual(
        only('prun_f6', 'prun_f3', 'prun_f2'),
      );
      expect(await ids(store, { awaiting: 'handoff' })).toEqual(only('prun_f1'));
      expect(await ids(store, { awaiting: 'timer' })).toEqual(only('prun_f4'));
    }));

  it('finds runs by exact run id, session id, creating Idempotency-Key or source path', () =>
    withStore(async (store) => {
      await seeded(store);
      expect(await ids(store, { q: 'prun_f4' })).toEqual(only('prun_f4'));
      expect(await ids(store, { q: 'sess_a' })).toEqual(only('prun_f2', 'prun_f1'));
      expect(await ids(store, { q: 'key-f1' })).toEqual(only('prun_f1'));
      expect(await ids(store, { q: '/payouts' })).toEqual(only('prun_f3'));
      // One value, several meanings: a session id and a source path; an id and a key.
      expect(await ids(store, { q: '/checkout' })).toEqual(only('prun_f6', 'prun_f1'));
      expect(await ids(store, { q: 'prun_f5' })).toEqual(only('prun_f5', 'prun_f2'));
      // Exact only: no prefixes, no case folding, nothing of another scope.
      for (const q of ['prun_f', 'SESS_A', 'sess_', '/check', 'prun_x1', 'prun_x2', ''])
        expect(await ids(store, { q }), q).toEqual(only());
    }));

  it('finds runs by names of kilobytes of multi-byte text', () =>
    withStore(async (store) => {
      // 2,048 characters, the longest source path the HTTP API takes: 6 kB of UTF-8 that
      // does not compress (a B-tree entry holds at most 2.7 kB).
      const varied = (length: number, from: number) =>
        Array.from({ length }, (_, index) =>
          String.fromCodePoint(from + ((index * 7919) % 20_000)),
        ).join('');
      const path = `/${varied(2047, 0x4e00)}`;
      const session = `sess_${varied(1000, 0x3400)}`;
      await store.transaction(async (tx) => {
        await tx.insertRun(filteredRun('prun_long', { at: day(9), source_path: path }));
        await tx.insertRun(filteredRun('prun_long_session', { at: day(8), session_id: session }));
      });
      expect(await ids(store, { q: path })).toEqual(only('prun_long'));
      expect(await ids(store, { q: path.slice(0, -1) })).toEqual(only());
      expect(await ids(store, { q: session })).toEqual(only('prun_long_session'));
    }));

  it('combines the record filters with each other, the other filters and the cursor', () =>
    withStore(async (store) => {
      await seeded(store);
      expect(await ids(store, { stage: 'release', awaiting: 'approval' })).toEqual(
        only('prun_f6', 'prun_f3', 'prun_f2'),
      );
      expect(await ids(store, { stage: 'release', status: 'completed' })).toEqual(only('prun_f5'));
      expect(await ids(store, { awaiting: 'approval', scenario_id: 'wallet-delivery@v1' })).toEqual(
        only('prun_f6', 'prun_f2'),
      );
      expect(
        await ids(store, { stage: 'release', created_gte: day(3), created_lt: day(6) }),
      ).toEqual(only('prun_f5', 'prun_f3'));
      expect(await ids(store, { q: 'sess_a', stage: 'intake' })).toEqual(only('prun_f1'));
      expect(await ids(store, { q: 'sess_a', awaiting: 'timer' })).toEqual(only());
      expect(await ids(store, { q: '/checkout', created_gte: day(2) })).toEqual(only('prun_f6'));
      expect(await ids(store, { stage: 'release', limit: 2 })).toEqual({
        ids: ['prun_f6', 'prun_f5'],
        has_more: true,
      });
      expect(await ids(store, { stage: 'release', limit: 2, starting_after: 'prun_f5' })).toEqual({
        ids: ['prun_f3', 'prun_f2'],
        has_more: false,
      });
      expect(
        await ids(store, { awaiting: 'approval', limit: 1, starting_after: 'prun_f3' }),
      ).toEqual(only('prun_f2'));
      expect(await ids(store, { q: 'sess_a', limit: 1 })).toEqual({
        ids: ['prun_f2'],
        has_more: true,
      });
      // A cursor that does not pass the filters gives an empty page, as with the others.
      expect(await ids(store, { stage: 'release', starting_after: 'prun_f4' })).toEqual(only());
      expect(await ids(store, { awaiting: 'approval', starting_after: 'prun_f5' })).toEqual(only());
      expect(await ids(store, { q: 'sess_a', starting_after: 'prun_f6' })).toEqual(only());
    }));

  it('filters on the record as last written', () =>
    withStore(async (store) => {
      await seeded(store);
      const moved = (id: string, fields: Partial<FilteredRun>) =>
        filteredRun(id, { ...SPECS[id]!, version: 2, ...fields });
      await store.transaction(async (tx) => {
        // The approval was given: prun_f2 moves to delivery and waits on a handoff.
        await tx.updateRun(moved('prun_f2', { stage: 'delivery', awaiting: 'handoff' }), 1);
        // prun_f1 finished where it was; its session and source path stay findable.
        await tx.updateRun(moved('prun_f1', { awaiting: null, status: 'completed' }), 1);
        // prun_f6 was started again from elsewhere: its session id changed.
        await tx.updateRun(moved('prun_f6', { session_id: 'sess_b' }), 1);
      });
      expect(await ids(store, { awaiting: 'approval' })).toEqual(only('prun_f6', 'prun_f3'));
      expect(await ids(store, { awaiting: 'handoff' })).toEqual(only('prun_f2'));
      expect(await ids(store, { stage: 'delivery' })).toEqual(only('prun_f4', 'prun_f2'));
      expect(await ids(store, { stage: 'release' })).toEqual(only('prun_f6', 'prun_f5', 'prun_f3'));
      expect(await ids(store, { q: 'sess_a', status: 'completed' })).toEqual(only('prun_f1'));
      expect(await ids(store, { q: '/checkout' })).toEqual(only('prun_f1'));
      expect(await ids(store, { q: 'sess_b' })).toEqual(only('prun_f6'));
    }));
}
