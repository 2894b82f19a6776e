import { expect, it } from 'vitest';
import { isStoreError } from '../store/store-error.js';
import {
  scope,
  otherAccount,
  otherEnvironment,
  storedRun,
  record,
  timer,
  idempotency,
  expectStoreError,
  type WithStore,
} from './fixtures.js';

/**
 * The Store spec v1 contract for runs and their lifecycle records: exact storage per scope, unique ids and creation keys, compare-and-swap updates, rollback, ordered lists, append-only records.
 */
export function defineRunContract(withStore: WithStore): void {
  it('declares spec v1', () =>
    withStore((store) => {
      expect(store.specificationVersion).toBe('v1');
      return Promise.resolve();
    }));
  it('stores runs exactly and scopes them to account and environment', () =>
    withStore(async (store) => {
      const run = storedRun('prun_1', { idempotency_key: 'key-1' });
      await store.transaction((tx) => tx.insertRun(run));
      await store.transaction(async (tx) => {
        expect(await tx.getRun(scope, 'prun_1')).toEqual(run);
        expect(await tx.getRun(otherAccount, 'prun_1')).toBeUndefined();
        expect(await tx.getRun(otherEnvironment, 'prun_1')).toBeUndefined();
        expect(await tx.findRunByIdempotencyKey(scope, 'key-1')).toEqual(run);
        expect(await tx.findRunByIdempotencyKey(otherAccount, 'key-1')).toBeUndefined();
      });
    }));
  it('refuses a second run with the same id or the same idempotency key in a scope', () =>
    withStore(async (store) => {
      await store.transaction((tx) =>
        tx.insertRun(storedRun('prun_1', { idempotency_key: 'key-1' })),
      );
      await expectStoreError(
        store.transaction((tx) => tx.insertRun(storedRun('prun_1'))),
        'duplicate_key',
      );
      await expectStoreError(
        store.transaction((tx) => tx.insertRun(storedRun('prun_2', { idempotency_key: 'key-1' }))),
        'duplicate_key',
      );
      await store.transaction((tx) =>
        tx.insertRun(
          storedRun('prun_3', { idempotency_key: 'key-1', account: otherAccount.account }),
        ),
      );
    }));
  it('updates a run only from the expected version (compare-and-swap)', () =>
    withStore(async (store) => {
      await store.transaction((tx) => tx.insertRun(storedRun('prun_1')));
      await store.transaction((tx) =>
        tx.updateRun(storedRun('prun_1', { version: 2, status: 'completed' }), 1),
      );
      await expectStoreError(
        store.transaction((tx) => tx.updateRun(storedRun('prun_1', { version: 3 }), 1)),
        'version_conflict',
      );
      await expectStoreError(
        store.transaction((tx) => tx.updateRun(storedRun('prun_missing', { version: 2 }), 1)),
        'version_conflict',
      );
      const stored = await store.transaction((tx) => tx.getRun(scope, 'prun_1'));
      expect(stored?.version).toBe(2);
      expect(stored?.status).toBe('completed');
    }));
  it('lets exactly one of two writers that read the same version win', () =>
    withStore(async (store) => {
      await store.transaction((tx) => tx.insertRun(storedRun('prun_1')));
      const read = await store.transaction((tx) => tx.getRun(scope, 'prun_1'));
      const attempts = await Promise.allSettled(
        (['completed', 'cancelled'] as const).map((status) =>
          store.transaction((tx) =>
            tx.updateRun(storedRun('prun_1', { version: 2, status }), read!.version),
          ),
        ),
      );
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
      const rejected = attempts.find((attempt) => attempt.status === 'rejected');
      expect(isStoreError(rejected?.reason, 'version_conflict')).toBe(true);
    }));
  it('rolls back every write of a transaction that throws', () =>
    withStore(async (store) => {
      await store.transaction((tx) => tx.insertRun(storedRun('prun_keep')));
      await expect(
        store.transaction(async (tx) => {
          await tx.insertRun(storedRun('prun_1', { idempotency_key: 'key-1' }));
          await tx.updateRun(storedRun('prun_keep', { version: 2, status: 'faulted' }), 1);
          await tx.appendRecords(scope, [record('prun_1', 1)]);
          await tx.scheduleTimers([timer('tmr_1', '2026-01-01T00:00:00.000Z')]);
          await tx.putIdempotencyRecord(idempotency('key-1'));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      await store.transaction(async (tx) => {
        expect(await tx.getRun(scope, 'prun_1')).toBeUndefined();
        expect(await tx.findRunByIdempotencyKey(scope, 'key-1')).toBeUndefined();
        expect((await tx.getRun(scope, 'prun_keep'))?.version).toBe(1);
        expect(await tx.listRecords(scope, 'prun_1')).toEqual([]);
        expect(await tx.dueTimers({ environment: 'test' }, '2030-01-01T00:00:00.000Z', 10)).toEqual(
          [],
        );
        expect(await tx.lockIdempotencyRecord(scope, 'key-1')).toBeUndefined();
      });
      // The store stays usable after a rollback.
      await store.transaction((tx) => tx.insertRun(storedRun('prun_1')));
    }));
  it('lists runs newest first with filters and cursor pagination', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        for (let index = 1; index <= 5; index += 1) {
          await tx.insertRun(
            storedRun(`prun_${index}`, {
              at: `2026-01-0${index}T00:00:00.000Z`,
              status: index % 2 === 0 ? 'completed' : 'waiting',
              scenario_id: index === 5 ? 'bank-payout@v1' : 'wallet-delivery@v1',
            }),
          );
        }
        await tx.insertRun(storedRun('prun_other', { account: otherAccount.account }));
      });
      await store.transaction(async (tx) => {
        const ids = async (query: Parameters<typeof tx.listRuns>[1]) => {
          const page = await tx.listRuns(scope, query);
          return { ids: page.data.map((run) => run.id), has_more: page.has_more };
        };
        expect(await ids({ limit: 2 })).toEqual({ ids: ['prun_5', 'prun_4'], has_more: true });
        expect(await ids({ limit: 2, starting_after: 'prun_4' })).toEqual({
          ids: ['prun_3', 'prun_2'],
          has_more: true,
        });
        expect(await ids({ limit: 2, starting_after: 'prun_2' })).toEqual({
          ids: ['prun_1'],
          has_more: false,
        });
        expect(await ids({ limit: 2, starting_after: 'prun_unknown' })).toEqual({
          ids: [],
          has_more: false,
        });
        expect(await ids({ limit: 2, starting_after: 'prun_other' })).toEqual({
          ids: [],
          has_more: false,
        });
        expect(await ids({ limit: 10, status: 'completed' })).toEqual({
          ids: ['prun_4', 'prun_2'],
          has_more: false,
        });
        expect(await ids({ limit: 10, scenario_id: 'bank-payout@v1' })).toEqual({
          ids: ['prun_5'],
          has_more: false,
        });
        expect(
          await ids({
            limit: 10,
            created_gte: '2026-01-02T00:00:00.000Z',
            created_lt: '2026-01-04T00:00:00.000Z',
          }),
        ).toEqual({ ids: ['prun_3', 'prun_2'], has_more: false });
      });
    }));
  it("counts a scope's runs of every version of one scenario by version and status", () =>
    withStore(async (store) => {
      const versions = [
        ['bank-payout@v1', 'waiting'],
        ['bank-payout@v1', 'waiting'],
        ['bank-payout@v1', 'completed'],
        ['bank-payout@v2', 'waiting'],
        ['bank-payout@v10', 'faulted'],
        // Other scenarios whose ids begin alike, and other scopes, are not counted.
        ['bank-payout-fast@v1', 'waiting'],
        ['bank-payoutx@v1', 'waiting'],
        ['bank@v1', 'waiting'],
      ] as const;
      await store.transaction(async (tx) => {
        for (const [index, [scenario_id, status]] of versions.entries())
          await tx.insertRun(storedRun(`prun_${index}`, { scenario_id, status }));
        await tx.insertRun(
          storedRun('prun_other', { account: otherAccount.account, scenario_id: 'bank-payout@v1' }),
        );
        await tx.insertRun(
          storedRun('prun_env', {
            environment: otherEnvironment.environment,
            scenario_id: 'bank-payout@v1',
          }),
        );
      });
      await store.transaction(async (tx) => {
        expect(typeof tx.countRunsByVersion).toBe('function');
        const counts = await tx.countRunsByVersion!(scope, 'bank-payout');
        const byKey = (a: { scenario_id: string; status: string }, b: typeof a) =>
          `${a.scenario_id} ${a.status}`.localeCompare(`${b.scenario_id} ${b.status}`);
        expect([...counts].sort(byKey)).toEqual(
          [
            { scenario_id: 'bank-payout@v1', status: 'completed', count: 1 },
            { scenario_id: 'bank-payout@v1', status: 'waiting', count: 2 },
            { scenario_id: 'bank-payout@v10', status: 'faulted', count: 1 },
            { scenario_id: 'bank-payout@v2', status: 'waiting', count: 1 },
          ].sort(byKey),
        );
        expect(await tx.countRunsByVersion!(scope, 'unknown-scenario')).toEqual([]);
      });
    }));
  it('appends lifecycle records in sequence and refuses a sequence twice', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        await tx.insertRun(storedRun('prun_1'));
        await tx.appendRecords(scope, [record('prun_1', 1), record('prun_1', 2)]);
      });
      await store.transaction((tx) => tx.appendRecords(scope, [record('prun_1', 3)]));
      await expectStoreError(
        store.transaction((tx) => tx.appendRecords(scope, [record('prun_1', 3)])),
        'duplicate_key',
      );
      await store.transaction(async (tx) => {
        expect(await tx.listRecords(scope, 'prun_1')).toEqual(
          [1, 2, 3].map((n) => record('prun_1', n)),
        );
        expect(
          (await tx.listRecords(scope, 'prun_1', { afterSequence: 1, limit: 1 })).map(
            (r) => r.sequence,
          ),
        ).toEqual([2]);
        expect(await tx.listRecords(otherAccount, 'prun_1')).toEqual([]);
      });
    }));
  it('stores a run suspended before its machine started (null snapshot)', () =>
    withStore(async (store) => {
      const held = storedRun('prun_held', { status: 'suspended', snapshot: null });
      await store.transaction((tx) => tx.insertRun(held));
      await store.transaction(async (tx) => {
        expect(await tx.getRun(scope, 'prun_held')).toEqual(held);
        expect(
          (await tx.listRuns(scope, { status: 'suspended', limit: 10 })).data.map((r) => r.id),
        ).toEqual(['prun_held']);
      });
    }));
}
