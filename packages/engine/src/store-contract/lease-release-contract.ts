import { expect, it } from 'vitest';
import type { StoreV1, TimerClaim } from '../store/store-v1.js';
import { expectStoreError, timer, type WithStore } from './fixtures.js';
import { at, handoffJob, jobsOf, seedJobs } from './handoff-job-fixtures.js';

const claimIds = async (store: StoreV1, claim: TimerClaim): Promise<string[]> =>
  (await store.transaction((tx) => tx.claimTimers(claim))).map((row) => row.id);

/**
 * The Store spec v1 contract for a stopping host giving its leases back: timers it claimed
 * but will not fire (`releaseTimerLeases`, fenced on its own lease), and handoff jobs it
 * leased (written back with no lease, fenced on the lease owner and call count, the call
 * count kept), so another host takes them at once rather than when the leases end.
 */
export function defineLeaseReleaseContract(withStore: WithStore): void {
  it('frees the timer leases a claimer gives back, and only its own', () =>
    withStore(async (store) => {
      await store.transaction((tx) =>
        tx.scheduleTimers(
          ['tmr_a', 'tmr_b', 'tmr_c', 'tmr_d'].map((id) => timer(id, '2026-01-01T00:01:00.000Z')),
        ),
      );
      const claim = (leaseNow: string, leaseUntil: string): TimerClaim => ({
        environment: 'test',
        due_at: '2026-01-01T00:30:00.000Z',
        lease_now: leaseNow,
        lease_until: leaseUntil,
        limit: 10,
      });
      const mine = '2026-01-01T00:10:00.000Z';
      expect(await claimIds(store, claim('2026-01-01T00:00:00.000Z', mine))).toEqual([
        'tmr_a',
        'tmr_b',
        'tmr_c',
        'tmr_d',
      ]);
      // tmr_c fired; tmr_d is given back, and another host takes it at once.
      await store.transaction((tx) => tx.settleTimers(['tmr_c'], 'fired'));
      const theirs = '2026-01-01T00:25:00.000Z';
      await store.transaction(async (tx) => {
        await tx.releaseTimerLeases(['tmr_d'], mine);
        await tx.releaseTimerLeases([], mine);
      });
      // Released: tmr_d is free again; a wrong lease value releases nothing.
      expect(await claimIds(store, claim('2026-01-01T00:01:00.000Z', theirs))).toEqual(['tmr_d']);
      await store.transaction(async (tx) => {
        await tx.releaseTimerLeases(['tmr_a'], '2026-01-01T00:09:59.000Z');
        // Mine again for a and b; c is gone; d is theirs and stays theirs.
        await tx.releaseTimerLeases(['tmr_a', 'tmr_b', 'tmr_c', 'tmr_d'], mine);
      });
      expect(await claimIds(store, claim('2026-01-01T00:02:00.000Z', theirs))).toEqual([
        'tmr_a',
        'tmr_b',
      ]);
      // A release rolled back with its transaction frees nothing.
      await store
        .transaction(async (tx) => {
          await tx.releaseTimerLeases(['tmr_a'], theirs);
          throw new Error('crash after releasing');
        })
        .catch(() => undefined);
      expect(await claimIds(store, claim('2026-01-01T00:04:00.000Z', mine))).toEqual([]);
      await store.transaction(async (tx) => {
        expect((await tx.pendingTimers('prun_1')).map((row) => row.id)).toEqual([
          'tmr_a',
          'tmr_b',
          'tmr_d',
        ]);
      });
    }));

  it('frees a handoff job lease written back with no owner, fenced on owner and calls', () =>
    withStore(async (store) => {
      await seedJobs(store, [handoffJob('hjob_1', 'acct_a', 'carrier', 1)]);
      const claim = (owner: string, leaseNow: number) =>
        store.transaction((tx) =>
          tx.claimHandoffJobs({
            environment: 'live',
            due_at: at(100),
            lease_now: at(leaseNow),
            lease_until: at(leaseNow + 60),
            owner,
            limit: 10,
          }),
        );
      const [held] = await claim('wkr_stopping', 10);
      expect(held).toMatchObject({ lease_owner: 'wkr_stopping', calls: 1 });
      const release = (job: typeof held & object) =>
        store.transaction((tx) =>
          tx.updateHandoffJob(
            { ...job, lease_owner: null, lease_until: null },
            { lease_owner: job.lease_owner, calls: job.calls },
          ),
        );
      await release(held!);
      expect((await jobsOf(store, ['prun_hjob_1'])).get('hjob_1')).toMatchObject({
        status: 'queued',
        calls: 1,
        lease_owner: null,
        lease_until: null,
      });
      // Free at once (long before the lease would have ended): the next claim is call 2.
      const [taken] = await claim('wkr_other', 11);
      expect(taken).toMatchObject({ lease_owner: 'wkr_other', calls: 2 });
      // Releasing what another worker took over is refused and changes nothing.
      await expectStoreError(release(held!), 'version_conflict');
      expect((await jobsOf(store, ['prun_hjob_1'])).get('hjob_1')).toMatchObject({
        lease_owner: 'wkr_other',
        calls: 2,
      });
    }));
}
