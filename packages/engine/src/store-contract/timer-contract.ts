import { expect, it } from 'vitest';
import { scope, timer, expectStoreError, type WithStore } from './fixtures.js';

/**
 * The Store spec v1 contract for timers and test clocks: pending and due timers, leases that free themselves, one clock per account.
 */
export function defineTimerContract(withStore: WithStore): void {
  it('keeps timers: pending per run, due ones earliest first per environment, settled ones gone', () =>
    withStore(async (store) => {
      await store.transaction((tx) =>
        tx.scheduleTimers([
          timer('tmr_late', '2026-01-01T00:10:00.000Z'),
          timer('tmr_early', '2026-01-01T00:01:00.000Z', { kind: 'partner_response' }),
          timer('tmr_live', '2026-01-01T00:00:30.000Z', { environment: 'live' }),
          timer('tmr_other_run', '2026-01-01T00:05:00.000Z', { run_id: 'prun_2' }),
          timer('tmr_other_account', '2026-01-01T00:04:00.000Z', {
            run_id: 'prun_3',
            account: 'acct_b',
          }),
        ]),
      );
      await store.transaction(async (tx) => {
        expect((await tx.pendingTimers('prun_1')).map((t) => t.id).sort()).toEqual([
          'tmr_early',
          'tmr_late',
          'tmr_live',
        ]);
        expect(
          (await tx.dueTimers({ environment: 'test' }, '2026-01-01T00:05:00.000Z', 10)).map(
            (t) => t.id,
          ),
        ).toEqual(['tmr_early', 'tmr_other_account', 'tmr_other_run']);
        expect(
          (await tx.dueTimers({ environment: 'test' }, '2026-01-01T00:05:00.000Z', 1)).map(
            (t) => t.id,
          ),
        ).toEqual(['tmr_early']);
        expect((await tx.nextTimer({ environment: 'live' }))?.id).toBe('tmr_live');
        // Per account: test clocks are per account, so are their timer queries.
        expect(
          (
            await tx.dueTimers(
              { environment: 'test', account: 'acct_b' },
              '2026-01-01T00:05:00.000Z',
              10,
            )
          ).map((t) => t.id),
        ).toEqual(['tmr_other_account']);
        expect((await tx.nextTimer({ environment: 'test', account: scope.account }))?.id).toBe(
          'tmr_early',
        );
        expect(await tx.dueTimers({ environment: 'test' }, '2026-01-01T00:00:59.000Z', 10)).toEqual(
          [],
        );
        await tx.settleTimers(['tmr_early', 'tmr_live'], 'fired');
      });
      await store.transaction(async (tx) => {
        expect((await tx.pendingTimers('prun_1')).map((t) => t.id)).toEqual(['tmr_late']);
        expect((await tx.nextTimer({ environment: 'test' }))?.id).toBe('tmr_other_account');
        expect((await tx.nextTimer({ environment: 'test', account: scope.account }))?.id).toBe(
          'tmr_other_run',
        );
        expect(await tx.nextTimer({ environment: 'live' })).toBeUndefined();
      });
      await expectStoreError(
        store.transaction((tx) =>
          tx.scheduleTimers([timer('tmr_late', '2026-01-01T00:00:00.000Z')]),
        ),
        'duplicate_key',
      );
    }));
  it('leases due timers to one claimer at a time and frees them when the lease ends', () =>
    withStore(async (store) => {
      const due = Array.from({ length: 12 }, (_, index) =>
        timer(`tmr_${String(index).padStart(2, '0')}`, '2026-01-01T00:01:00.000Z', {
          run_id: `prun_${index % 3}`,
        }),
      );
      await store.transaction((tx) =>
        tx.scheduleTimers([
          ...due,
          timer('tmr_future', '2026-01-01T01:00:00.000Z'),
          timer('tmr_live_due', '2026-01-01T00:00:00.000Z', { environment: 'live' }),
        ]),
      );
      const claim = (leaseNow: string, limit = 5) => ({
        environment: 'test' as const,
        due_at: '2026-01-01T00:30:00.000Z',
        lease_now: leaseNow,
        lease_until: '2026-01-01T00:10:00.000Z',
        limit,
      });
      // Four claimers at once (separate transactions): every due timer goes to exactly one.
      const batches = await Promise.all(
        [0, 1, 2, 3].map(() =>
          store.transaction((tx) => tx.claimTimers(claim('2026-01-01T00:00:00.000Z'))),
        ),
      );
      const claimed = batches.flat().map((t) => t.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect([...claimed].sort()).toEqual(due.map((t) => t.id));
      for (const batch of batches) {
        expect(batch.map((t) => t.id)).toEqual([...batch.map((t) => t.id)].sort());
      }
      // Held while the lease lasts; free again once it ended (a crashed host's timers).
      expect(
        await store.transaction((tx) => tx.claimTimers(claim('2026-01-01T00:09:59.000Z'))),
      ).toEqual([]);
      await store.transaction((tx) => tx.settleTimers(['tmr_00', 'tmr_01'], 'fired'));
      const retaken = await store.transaction((tx) =>
        tx.claimTimers(claim('2026-01-01T00:10:01.000Z', 50)),
      );
      expect(retaken.map((t) => t.id)).toEqual(due.slice(2).map((t) => t.id));
      expect(retaken[0]).toEqual(due[2]);
      // Leased timers are still pending, listed and due (only claims skip them).
      await store.transaction(async (tx) => {
        expect((await tx.pendingTimers('prun_2')).map((t) => t.id)).toContain('tmr_02');
        expect(
          (await tx.dueTimers({ environment: 'test' }, '2026-01-01T00:30:00.000Z', 1)).map(
            (t) => t.id,
          ),
        ).toEqual(['tmr_02']);
      });
      // A claim rolled back with its transaction leaves the timers free.
      await store
        .transaction(async (tx) => {
          await tx.claimTimers({ ...claim('2026-01-01T00:00:00.000Z'), environment: 'live' });
          throw new Error('crash after claiming');
        })
        .catch(() => undefined);
      expect(
        (
          await store.transaction((tx) =>
            tx.claimTimers({ ...claim('2026-01-01T00:00:00.000Z'), environment: 'live' }),
          )
        ).map((t) => t.id),
      ).toEqual(['tmr_live_due']);
    }));
  it('keeps one test clock per account that only its owner moves', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        expect(await tx.getTestClock('acct_a')).toBeUndefined();
        expect(await tx.listTestClocks()).toEqual([]);
        await tx.putTestClock({
          account: 'acct_b',
          offset_ms: 5_000,
          updated_at: '2026-01-01T00:00:00.000Z',
        });
        await tx.putTestClock({
          account: 'acct_a',
          offset_ms: 1_000,
          updated_at: '2026-01-01T00:00:00.000Z',
        });
        await tx.putTestClock({
          account: 'acct_a',
          offset_ms: 61_000,
          updated_at: '2026-01-01T00:01:00.000Z',
        });
      });
      await store.transaction(async (tx) => {
        expect(await tx.getTestClock('acct_a')).toEqual({
          account: 'acct_a',
          offset_ms: 61_000,
          updated_at: '2026-01-01T00:01:00.000Z',
        });
        expect(
          (await tx.listTestClocks()).map((clock) => [clock.account, clock.offset_ms]),
        ).toEqual([
          ['acct_a', 61_000],
          ['acct_b', 5_000],
        ]);
      });
    }));
}
