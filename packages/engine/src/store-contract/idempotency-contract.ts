import { expect, it } from 'vitest';
import { contendedLock, idempotency, otherAccount, scope, type WithStore } from './fixtures.js';

/**
 * The Store spec v1 contract for idempotency records per scope, their purge, and that `lockIdempotencyRecord` holds the key until COMMIT.
 */
export function defineIdempotencyContract(withStore: WithStore): void {
  it('keeps idempotency records per scope and purges expired ones', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        await tx.putIdempotencyRecord(idempotency('key-1', { state: 'in_flight', response: null }));
        await tx.putIdempotencyRecord(idempotency('key-1'));
        await tx.putIdempotencyRecord(
          idempotency('key-2', { expires_at: '2026-01-03T00:00:00.000Z' }),
        );
        await tx.putIdempotencyRecord(
          idempotency('key-1', { account: otherAccount.account, fingerprint: 'sha256:other' }),
        );
      });
      await store.transaction(async (tx) => {
        expect(await tx.lockIdempotencyRecord(scope, 'key-1')).toEqual(idempotency('key-1'));
        expect((await tx.lockIdempotencyRecord(otherAccount, 'key-1'))?.fingerprint).toBe(
          'sha256:other',
        );
        expect(await tx.purgeIdempotencyRecords('2026-01-02T12:00:00.000Z')).toBe(2);
        expect(await tx.lockIdempotencyRecord(scope, 'key-1')).toBeUndefined();
        expect(await tx.lockIdempotencyRecord(scope, 'key-2')).toBeDefined();
        await tx.deleteIdempotencyRecord(scope, 'key-2');
        expect(await tx.lockIdempotencyRecord(scope, 'key-2')).toBeUndefined();
      });
    }));

  it('holds a key locked by lockIdempotencyRecord until COMMIT, even one without a record', () =>
    withStore(async (store) => {
      const steps = await contendedLock(
        store,
        (tx) => tx.lockIdempotencyRecord(scope, 'contended'),
        (tx) => tx.putIdempotencyRecord(idempotency('contended', { fingerprint: 'sha256:first' })),
        (seen) => seen?.fingerprint ?? 'nothing',
      );
      expect(steps).toEqual(['first writes and commits', 'second sees sha256:first']);
    }));
}
