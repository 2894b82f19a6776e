import { expect, it } from 'vitest';
import type { HandoffJobClaim, HandoffJobRow, StoreV1 } from '../store/store-v1.js';
import type { WithStore } from './fixtures.js';
import { at, handoffJob, jobsOf, seedJobs } from './handoff-job-fixtures.js';

/** Wall-clock now of the claims: leases ending at or before it are free. */
const LEASE_NOW = at(30);
/** Where claims lease to, and where other owners' live leases end. */
const LEASED_UNTIL = at(300);

const claimOf = (overrides: Partial<HandoffJobClaim> = {}): HandoffJobClaim => ({
  environment: 'live',
  due_at: at(100),
  lease_now: LEASE_NOW,
  lease_until: LEASED_UNTIL,
  owner: 'wkr_1',
  limit: 10,
  ...overrides,
});

/** Held by another worker until {@link LEASED_UNTIL}: in flight. */
const held = { lease_owner: 'wkr_other', lease_until: LEASED_UNTIL, calls: 1 } as const;

const claim = (store: StoreV1, request: HandoffJobClaim): Promise<HandoffJobRow[]> =>
  store.transaction((tx) => tx.claimHandoffJobs(request));
const claimIds = async (store: StoreV1, request: HandoffJobClaim): Promise<string[]> =>
  (await claim(store, request)).map((job) => job.id);

/** Settles a call the way a worker does: fenced by its lease owner and call count. */
async function settle(store: StoreV1, job: HandoffJobRow): Promise<void> {
  await store.transaction((tx) =>
    tx.updateHandoffJob(
      { ...job, status: 'closed', lease_owner: null, lease_until: null },
      { lease_owner: job.lease_owner, calls: job.calls },
    ),
  );
}

/**
 * The Store spec v1 contract for claiming handoff jobs: due queued jobs with a free lease,
 * one call counted each, a party's `max_in_flight` across every owner and account (also
 * for claims running at once), `max_per_account`, and accounts taking turns, round robin
 * by the party's memory of turns at equal turns.
 */
export function defineHandoffJobClaimContract(withStore: WithStore): void {
  it('leases due queued jobs whose lease is free, counting a call, earliest due first', () =>
    withStore(async (store) => {
      await seedJobs(store, [
        handoffJob('hjob_1', 'acct_a', 'carrier', 5),
        handoffJob('hjob_3', 'acct_a', 'carrier', 3),
        handoffJob('hjob_2', 'acct_a', 'carrier', 3),
        handoffJob('hjob_bank', 'acct_b', 'bank', 2),
        handoffJob('hjob_future', 'acct_a', 'carrier', 200),
        handoffJob('hjob_accepted', 'acct_a', 'carrier', 1, { status: 'accepted' }),
        handoffJob('hjob_exhausted', 'acct_a', 'carrier', 1, { status: 'exhausted' }),
        handoffJob('hjob_closed', 'acct_a', 'carrier', 1, { status: 'closed' }),
        handoffJob('hjob_test', 'acct_a', 'carrier', 1, { environment: 'test' }),
        handoffJob('hjob_held', 'acct_a', 'carrier', 0, held),
        // A lease that ended (its worker died): free again, and the call counts on.
        handoffJob('hjob_expired', 'acct_a', 'carrier', 4, {
          lease_owner: 'wkr_dead',
          lease_until: at(10),
          calls: 1,
        }),
      ]);
      const claimed = await claim(store, claimOf());
      expect(claimed.map((job) => job.id)).toEqual([
        'hjob_bank',
        'hjob_2',
        'hjob_3',
        'hjob_expired',
        'hjob_1',
      ]);
      const leased = { lease_owner: 'wkr_1', lease_until: LEASED_UNTIL };
      expect(claimed[1]).toEqual({
        ...handoffJob('hjob_2', 'acct_a', 'carrier', 3),
        ...leased,
        calls: 1,
      });
      expect(claimed[3]).toEqual({
        ...handoffJob('hjob_expired', 'acct_a', 'carrier', 4),
        ...leased,
        calls: 2,
      });
      // Stored as returned; held until the lease ends.
      const stored = await jobsOf(store, ['prun_hjob_2', 'prun_hjob_held']);
      expect(stored.get('hjob_2')).toEqual(claimed[1]);
      expect(stored.get('hjob_held')).toEqual(
        handoffJob('hjob_held', 'acct_a', 'carrier', 0, held),
      );
      expect(await claimIds(store, claimOf({ owner: 'wkr_2' }))).toEqual([]);
      expect(await claimIds(store, claimOf({ environment: 'test', due_at: at(0) }))).toEqual([]);
      expect(await claimIds(store, claimOf({ environment: 'test' }))).toEqual(['hjob_test']);
    }));

  it('filters by account and party and stops at the limit', () =>
    withStore(async (store) => {
      await seedJobs(store, [
        handoffJob('hjob_a1', 'acct_a', 'carrier', 1),
        handoffJob('hjob_a2', 'acct_a', 'carrier', 2),
        handoffJob('hjob_b3', 'acct_b', 'carrier', 3),
        handoffJob('hjob_a0', 'acct_a', 'bank', 0),
      ]);
      expect(await claimIds(store, claimOf({ limit: 0 }))).toEqual([]);
      expect(await claimIds(store, claimOf({ party: 'carrier', account: 'acct_b' }))).toEqual([
        'hjob_b3',
      ]);
      expect(await claimIds(store, claimOf({ party: 'carrier', limit: 1 }))).toEqual(['hjob_a1']);
      expect(await claimIds(store, claimOf({ account: 'acct_a' }))).toEqual(['hjob_a0', 'hjob_a2']);
    }));

  it("never leaves more than max_in_flight of a party in flight, counting every owner's leases", () =>
    withStore(async (store) => {
      await seedJobs(store, [
        // In flight on other hosts: one of another account, one of acct_a.
        handoffJob('hjob_held_b', 'acct_b', 'carrier', 0, held),
        handoffJob('hjob_held_a', 'acct_a', 'carrier', 0, { ...held, lease_owner: 'wkr_x' }),
        // Ended leases and other parties' leases count for nothing.
        handoffJob('hjob_ended', 'acct_a', 'carrier', 9, { ...held, lease_until: at(20) }),
        handoffJob('hjob_bank1', 'acct_a', 'bank', 0, held),
        handoffJob('hjob_bank2', 'acct_a', 'bank', 0, held),
        ...[1, 2, 3, 4].map((due) => handoffJob(`hjob_a${due}`, 'acct_a', 'carrier', due)),
      ]);
      const limited = claimOf({ party: 'carrier', max_in_flight: 3 });
      // Two in flight (across accounts, even for a claim of one account): one slot left.
      expect(await claimIds(store, { ...limited, account: 'acct_a' })).toEqual(['hjob_a1']);
      expect(await claimIds(store, limited)).toEqual([]);
      expect(await claimIds(store, { ...limited, owner: 'wkr_2' })).toEqual([]);
      // A settled call frees its slot.
      const [a1] = [...(await jobsOf(store, ['prun_hjob_a1'])).values()];
      await settle(store, a1!);
      expect(await claimIds(store, limited)).toEqual(['hjob_a2']);
      // Once every lease has ended, nothing is in flight: three slots.
      const later = { ...limited, lease_now: LEASED_UNTIL, lease_until: at(600) };
      expect(await claimIds(store, later)).toEqual(['hjob_held_a', 'hjob_held_b', 'hjob_a2']);
      expect(await claimIds(store, later)).toEqual([]);
      // Without a cap the party's other due jobs go too.
      expect(
        await claimIds(store, { ...claimOf({ party: 'carrier' }), lease_now: LEASED_UNTIL }),
      ).toEqual(['hjob_a3', 'hjob_a4', 'hjob_ended']);
    }));

  it("counts the claimer's own ended calls in no limit, and never claims them", () =>
    withStore(async (store) => {
      const mine = { ...held, lease_owner: 'wkr_1' };
      await seedJobs(store, [
        // This host's calls: one over (its result being written), one in flight.
        handoffJob('hjob_over', 'acct_a', 'carrier', 0, mine),
        handoffJob('hjob_calling', 'acct_a', 'carrier', 0, mine),
        // Another host's call, named as ended by mistake: still in flight.
        handoffJob('hjob_other', 'acct_b', 'carrier', 0, held),
        ...[1, 2, 3].map((due) => handoffJob(`hjob_a${due}`, 'acct_a', 'carrier', due)),
      ]);
      const limited = claimOf({ party: 'carrier', max_in_flight: 3 });
      // Three leases, three in flight: no slot.
      expect(await claimIds(store, limited)).toEqual([]);
      // The claimer's ended call frees its slot; the other owner's does not.
      const ended = { ...limited, ended: ['hjob_over', 'hjob_other'] };
      expect(await claimIds(store, ended)).toEqual(['hjob_a1']);
      expect(await claimIds(store, ended)).toEqual([]);
      // Another owner's claim counts every lease: nothing.
      expect(await claimIds(store, { ...ended, owner: 'wkr_2' })).toEqual([]);
      // An account's share counts its ended call for nothing either.
      const shared = claimOf({ party: 'carrier', max_per_account: 3, ended: ['hjob_over'] });
      expect(await claimIds(store, shared)).toEqual(['hjob_a2']);
      // The ended call itself is never claimed while its lease holds.
      expect((await jobsOf(store, ['prun_hjob_over'])).get('hjob_over')).toMatchObject(mine);
    }));

  it('caps what one account holds with max_per_account, counting leases still held', () =>
    withStore(async (store) => {
      await seedJobs(store, [
        handoffJob('hjob_a0', 'acct_a', 'carrier', 0, held),
        ...[1, 2, 3, 4].map((due) => handoffJob(`hjob_a${due}`, 'acct_a', 'carrier', due)),
        handoffJob('hjob_b5', 'acct_b', 'carrier', 5),
        handoffJob('hjob_b6', 'acct_b', 'carrier', 6),
        handoffJob('hjob_b7', 'acct_b', 'carrier', 7),
      ]);
      const capped = claimOf({ party: 'carrier', max_per_account: 2 });
      // acct_a holds one: one more (turn 2); acct_b takes two (turns 1 and 2).
      expect(await claimIds(store, capped)).toEqual(['hjob_a1', 'hjob_b5', 'hjob_b6']);
      expect(await claimIds(store, capped)).toEqual([]);
      expect(await claimIds(store, { ...capped, lease_now: LEASED_UNTIL, limit: 3 })).toEqual([
        'hjob_a0',
        'hjob_a1',
        'hjob_b5',
      ]);
    }));

  it("lets accounts take turns: one account's backlog never delays another's single job", () =>
    withStore(async (store) => {
      const backlog = Array.from({ length: 50 }, (_, index) =>
        handoffJob(`hjob_a${String(index).padStart(2, '0')}`, 'acct_a', 'carrier', index),
      );
      await seedJobs(store, backlog);
      const limited = claimOf({ party: 'carrier', max_in_flight: 4, limit: 4 });
      expect(await claimIds(store, limited)).toEqual([
        'hjob_a00',
        'hjob_a01',
        'hjob_a02',
        'hjob_a03',
      ]);
      // acct_b's single job arrives last, due after the whole backlog.
      await seedJobs(store, [handoffJob('hjob_b', 'acct_b', 'carrier', 90)]);
      expect(await claimIds(store, limited)).toEqual([]);
      // The first call that ends gives its slot to acct_b (turn 1), not the backlog (turn 4).
      const [a00] = [...(await jobsOf(store, ['prun_hjob_a00'])).values()];
      await settle(store, a00!);
      expect(await claimIds(store, limited)).toEqual(['hjob_b']);
      // A claim with room takes both accounts' turn 1 before the backlog's turn 2.
      expect(
        await claimIds(store, claimOf({ party: 'carrier', limit: 2, lease_now: LEASED_UNTIL })),
      ).toEqual(['hjob_a01', 'hjob_b']);
    }));

  it("at a concurrency of 1, takes another account's single job once the call in flight ends", () =>
    withStore(async (store) => {
      await seedJobs(
        store,
        Array.from({ length: 50 }, (_, index) =>
          handoffJob(`hjob_a${String(index).padStart(2, '0')}`, 'acct_a', 'carrier', index),
        ),
      );
      const one = claimOf({ party: 'carrier', max_in_flight: 1, limit: 1 });
      const [a00] = await claim(store, one);
      expect(a00?.id).toBe('hjob_a00');
      // acct_b's single job arrives last, due after the whole backlog.
      await seedJobs(store, [handoffJob('hjob_b', 'acct_b', 'carrier', 90)]);
      expect(await claimIds(store, one)).toEqual([]);
      // The call ends: nothing in flight, both accounts on turn 1. acct_b, which the party
      // never served, goes before acct_a's earlier backlog.
      await settle(store, a00!);
      const [b] = await claim(store, one);
      expect(b?.id).toBe('hjob_b');
      await settle(store, b!);
      expect(await claimIds(store, one)).toEqual(['hjob_a01']);
    }));

  it('serves accounts with due jobs round robin, in the order their turns ended', () =>
    withStore(async (store) => {
      // Every job of acct_a is due before any of acct_b's, and acct_b's before acct_c's.
      await seedJobs(
        store,
        ['a', 'b', 'c'].flatMap((account, order) =>
          [0, 1, 2, 3, 4].map((index) =>
            handoffJob(`hjob_${account}${index}`, `acct_${account}`, 'carrier', order * 10 + index),
          ),
        ),
      );
      const one = claimOf({ party: 'carrier', max_in_flight: 1, limit: 1 });
      const served: string[] = [];
      const claimAndSettle = async (request: HandoffJobClaim): Promise<void> => {
        const jobs = await claim(store, request);
        served.push(...jobs.map((job) => job.id));
        for (const job of jobs) await settle(store, job);
      };
      for (let call = 0; call < 7; call += 1) await claimAndSettle(one);
      expect(served.splice(0)).toEqual([
        'hjob_a0',
        'hjob_b0',
        'hjob_c0',
        'hjob_a1',
        'hjob_b1',
        'hjob_c1',
        'hjob_a2',
      ]);
      // A claim with room for two takes the two turns that ended longest ago (acct_b's,
      // then acct_c's); acct_c's turn ended last in it, so acct_a, then acct_b go next.
      await claimAndSettle(claimOf({ party: 'carrier', max_in_flight: 2, limit: 2 }));
      expect(served.splice(0)).toEqual(['hjob_b2', 'hjob_c2']);
      for (let call = 0; call < 3; call += 1) await claimAndSettle(one);
      expect(served.splice(0)).toEqual(['hjob_a3', 'hjob_b3', 'hjob_c3']);
      // An account the party never served goes first, whatever its due time.
      await seedJobs(store, [handoffJob('hjob_d0', 'acct_d', 'carrier', 99)]);
      for (let call = 0; call < 3; call += 1) await claimAndSettle(one);
      expect(served.splice(0)).toEqual(['hjob_d0', 'hjob_a4', 'hjob_b4']);
    }));

  it('remembers turns only for committed claims naming their party', () =>
    withStore(async (store) => {
      await seedJobs(store, [
        handoffJob('hjob_a0', 'acct_a', 'carrier', 0),
        handoffJob('hjob_a1', 'acct_a', 'carrier', 1),
        handoffJob('hjob_a2', 'acct_a', 'carrier', 2),
        handoffJob('hjob_b5', 'acct_b', 'carrier', 5),
      ]);
      const one = claimOf({ party: 'carrier', max_in_flight: 1, limit: 1 });
      // A claim of every party ties by due and leaves the memory as it is.
      const [a0] = await claim(store, claimOf({ limit: 1 }));
      expect(a0?.id).toBe('hjob_a0');
      await settle(store, a0!);
      const [a1] = await claim(store, one);
      expect(a1?.id).toBe('hjob_a1');
      await settle(store, a1!);
      // A claim rolled back leaves it too: acct_b is still the one never served.
      await store
        .transaction(async (tx) => {
          expect((await tx.claimHandoffJobs(one)).map((job) => job.id)).toEqual(['hjob_b5']);
          throw new Error('crash after claiming');
        })
        .catch(() => undefined);
      expect(await claimIds(store, one)).toEqual(['hjob_b5']);
    }));

  it('serializes claims of one party: claims at once never exceed max_in_flight', () =>
    withStore(async (store) => {
      await seedJobs(
        store,
        Array.from({ length: 12 }, (_, index) =>
          handoffJob(
            `hjob_${String(index).padStart(2, '0')}`,
            `acct_${index % 3}`,
            'carrier',
            index,
          ),
        ),
      );
      for (const round of [0, 1, 2]) {
        const leaseNow = at(30 + round * 300);
        const batches = await Promise.all(
          Array.from({ length: 6 }, (_, worker) =>
            claim(
              store,
              claimOf({
                party: 'carrier',
                // Some claim one account's jobs (as per-account test clocks do): they see
                // different jobs, so only serialized claims count each other's leases.
                ...(worker < 3 ? { account: `acct_${worker}` } : {}),
                max_in_flight: 3,
                limit: 2,
                owner: `wkr_${worker}`,
                lease_now: leaseNow,
                lease_until: at(30 + (round + 1) * 300),
              }),
            ),
          ),
        );
        const claimed = batches.flat().map((job) => job.id);
        expect(new Set(claimed).size).toBe(claimed.length);
        expect(claimed).toHaveLength(3);
      }
    }));

  it('leaves jobs free when the claiming transaction rolls back', () =>
    withStore(async (store) => {
      await seedJobs(store, [handoffJob('hjob_1', 'acct_a', 'carrier', 1)]);
      await store
        .transaction(async (tx) => {
          await tx.claimHandoffJobs(claimOf());
          throw new Error('crash after claiming');
        })
        .catch(() => undefined);
      const claimed = await claim(store, claimOf({ owner: 'wkr_2' }));
      expect(claimed.map((job) => [job.id, job.calls, job.lease_owner])).toEqual([
        ['hjob_1', 1, 'wkr_2'],
      ]);
    }));
}
