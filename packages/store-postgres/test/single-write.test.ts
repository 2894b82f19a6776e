// A single-write unit of work (`store.transaction(work, { singleWrite: true })`) reads
// before any BEGIN and commits its one transition write by itself; whatever else it does
// runs in an ordinary transaction, started lazily by the first statement that needs it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createEngine,
  isStoreError,
  type Scope,
  type StoreV1,
  type TransitionWrite,
} from '@programrun/engine';
import { lazyTransaction, SecondWriteError } from '../src/sql/lazy-transaction.js';
import { nextVersionWrite } from './support/next-version-write.js';
import { closingAfter, usePGliteSchemas } from './support/pglite-schemas.js';
import { WALLET_LIVE_INPUTS } from './support/wallet-signals.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
const freshStore = usePGliteSchemas('single_write');
const scope: Scope = { account: 'acct_single_write', environment: 'live' };
const SINGLE_WRITE = { singleWrite: true } as const;

/** A live run created by an engine over `store`, at version 1. */
async function createdRun(store: StoreV1): Promise<string> {
  const engine = createEngine({ store, scenarios });
  const { run } = await engine.createRun(scope, {
    scenario_id: 'wallet-delivery@v1',
    inputs: WALLET_LIVE_INPUTS,
  });
  return run.id;
}

/** The run moved to the next version with nothing else written, expecting `expected`. */
const bump = (store: StoreV1, id: string, expected?: number): Promise<TransitionWrite> =>
  nextVersionWrite(store, scope, id, expected);

/** Runs `work` on a store of a fresh schema, closed after. */
const withFreshStore = closingAfter(freshStore);

const versionOf = async (store: StoreV1, id: string) =>
  (await store.transaction((tx) => tx.getRun(scope, id)))?.version;

describe('a single-write unit of work on a SQL store', () => {
  it('commits its transition write by itself, and refuses a write after it', () =>
    withFreshStore(async (store) => {
      const id = await createdRun(store);
      const write = await bump(store, id);
      const refused = await store
        .transaction(async (tx) => {
          await tx.loadRunForTransition(scope, id);
          await tx.writeTransition(write);
          await tx.getRun(scope, id); // reads after the write are fine
          await tx.putTestClock({ account: scope.account, offset_ms: 1, updated_at: 'x' });
        }, SINGLE_WRITE)
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(SecondWriteError);
      // The write had committed by itself; the refused one never ran.
      expect(await versionOf(store, id)).toBe(2);
      expect(await store.transaction((tx) => tx.getTestClock(scope.account))).toBeUndefined();
    }));

  it('writes nothing when its transition write loses the compare-and-swap', () =>
    withFreshStore(async (store) => {
      const id = await createdRun(store);
      const stale = await bump(store, id, 7);
      const error = await store
        .transaction((tx) => tx.writeTransition(stale), SINGLE_WRITE)
        .catch((caught: unknown) => caught);
      expect(isStoreError(error, 'version_conflict')).toBe(true);
      expect(await versionOf(store, id)).toBe(1);
    }));

  it('runs any other write in a transaction that rolls back whole when the work throws', () =>
    withFreshStore(async (store) => {
      const id = await createdRun(store);
      const write = await bump(store, id);
      await expect(
        store.transaction(async (tx) => {
          await tx.putTestClock({ account: scope.account, offset_ms: 5, updated_at: 'x' });
          await tx.writeTransition(write); // inside the transaction the first write began
          throw new Error('the work fails after both writes');
        }, SINGLE_WRITE),
      ).rejects.toThrow('the work fails after both writes');
      expect(await versionOf(store, id)).toBe(1);
      expect(await store.transaction((tx) => tx.getTestClock(scope.account))).toBeUndefined();
    }));

  it('sends BEGIN only for a statement that needs one', async () => {
    const begins: string[] = [];
    const ran: string[] = [];
    const statement = (name: string) => () => Promise.resolve(void ran.push(name));
    const lazy = lazyTransaction(true, () => Promise.resolve(void begins.push('BEGIN')));
    await lazy.run({ read: true }, statement('read'));
    await lazy.run({ autocommit: true }, statement('write'));
    await lazy.run({ read: true }, statement('read after'));
    await expect(lazy.run({}, statement('second write'))).rejects.toThrow(SecondWriteError);
    expect([begins, ran, lazy.begun]).toEqual([[], ['read', 'write', 'read after'], false]);

    const eager = lazyTransaction(false, () => Promise.resolve(void begins.push('BEGIN')));
    await eager.run({ read: true }, statement('eager read'));
    await eager.run({ autocommit: true }, statement('eager write'));
    expect([begins, eager.begun]).toEqual([['BEGIN'], true]);

    // A lazy transaction whose first write is not whole by itself begins before it.
    const mixed = lazyTransaction(true, () => Promise.resolve(void begins.push('BEGIN')));
    await mixed.run({ read: true }, statement('mixed read'));
    await mixed.run({}, statement('plain write'));
    await mixed.run({ autocommit: true }, statement('transition in the transaction'));
    expect([begins, mixed.begun]).toEqual([['BEGIN', 'BEGIN'], true]);
  });
});
