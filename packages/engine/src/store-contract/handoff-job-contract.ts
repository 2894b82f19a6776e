import { expect, it } from 'vitest';
import type { HandoffJobRow, StoreTransactionV1 } from '../store/store-v1.js';
import { expectStoreError, type WithStore } from './fixtures.js';
import { at, handoffJob, JOB_T0, jobsOf, seedJobs } from './handoff-job-fixtures.js';

const INT_MAX = 2 ** 31 - 1;

/** A job of run `prun_r` at (step, attempt). */
const ofRun = (id: string, step: string, attempt: number, overrides: Partial<HandoffJobRow> = {}) =>
  handoffJob(id, 'acct_a', 'carrier', 1, { run_id: 'prun_r', step, attempt, ...overrides });

const claimAll = (tx: StoreTransactionV1, owner: string, leaseNow: string, leaseUntil: string) =>
  tx.claimHandoffJobs({
    environment: 'live',
    due_at: at(3_000),
    lease_now: leaseNow,
    lease_until: leaseUntil,
    owner,
    limit: 100,
  });

/**
 * The Store spec v1 contract for handoff jobs: kept exactly per run, settled under the
 * worker's fence (lease owner and call count), closed by the run except those it still
 * awaits, the next due job, and per-party loads of an account or a whole environment.
 */
export function defineHandoffJobContract(withStore: WithStore): void {
  it('keeps jobs exactly, listed per run by (step, attempt), and refuses a duplicate id', () =>
    withStore(async (store) => {
      const jobs = [
        ofRun('hjob_ship10', 'ship', 10),
        ofRun('hjob_ship2', 'ship', 2, {
          status: 'exhausted',
          calls: 3,
          last_error: { class: 'http_5xx', message: 'bad gateway', status: 502, at: at(7) },
        }),
        ofRun('hjob_deliver', 'deliver', 1, { status: 'accepted', calls: 1 }),
        handoffJob('hjob_other', 'acct_a', 'carrier', 1),
      ];
      await seedJobs(store, jobs);
      await store.transaction(async (tx) => {
        expect(await tx.handoffJobsOfRun('prun_r')).toEqual([jobs[2], jobs[1], jobs[0]]);
        expect(await tx.handoffJobsOfRun('prun_none')).toEqual([]);
      });
      // A batch with one existing id writes nothing.
      await expectStoreError(
        seedJobs(store, [ofRun('hjob_new', 'pay', 1), ofRun('hjob_ship2', 'ship', 2)]),
        'duplicate_key',
      );
      expect([...(await jobsOf(store, ['prun_r'])).keys()]).toEqual([
        'hjob_deliver',
        'hjob_ship2',
        'hjob_ship10',
      ]);
    }));

  it('settles a call only while the worker still holds it (lease owner and call count)', () =>
    withStore(async (store) => {
      await seedJobs(store, [handoffJob('hjob_1', 'acct_a', 'carrier', 1)]);
      const [first] = await store.transaction((tx) => claimAll(tx, 'wkr_1', at(30), at(60)));
      expect(first).toMatchObject({ lease_owner: 'wkr_1', calls: 1 });
      const retry = {
        ...first!,
        next_attempt_at: at(90),
        lease_owner: null,
        lease_until: null,
        last_error: { class: 'timeout', message: 'no answer', status: null, at: at(59) },
        updated_at: at(59),
      };
      await expectStoreError(
        store.transaction((tx) => tx.updateHandoffJob(retry, { lease_owner: 'wkr_2', calls: 1 })),
        'version_conflict',
      );
      await expectStoreError(
        store.transaction((tx) => tx.updateHandoffJob(retry, { lease_owner: 'wkr_1', calls: 0 })),
        'version_conflict',
      );
      // The lease ended before wkr_1 settled: wkr_2 took the job over (call 2).
      const [second] = await store.transaction((tx) => claimAll(tx, 'wkr_2', at(61), at(120)));
      expect(second).toMatchObject({ lease_owner: 'wkr_2', calls: 2 });
      await expectStoreError(
        store.transaction((tx) => tx.updateHandoffJob(retry, { lease_owner: 'wkr_1', calls: 1 })),
        'version_conflict',
      );
      const accepted = {
        ...second!,
        status: 'accepted' as const,
        lease_owner: null,
        lease_until: null,
      };
      await store.transaction((tx) =>
        tx.updateHandoffJob(accepted, { lease_owner: 'wkr_2', calls: 2 }),
      );
      expect((await jobsOf(store, ['prun_hjob_1'])).get('hjob_1')).toEqual(accepted);
      // Accepted jobs are not claimed; a job nobody holds is updated with a null owner.
      expect(await store.transaction((tx) => claimAll(tx, 'wkr_3', at(500), at(600)))).toEqual([]);
      const requeued = { ...accepted, status: 'queued' as const };
      await store.transaction((tx) =>
        tx.updateHandoffJob(requeued, { lease_owner: null, calls: 2 }),
      );
      expect((await jobsOf(store, ['prun_hjob_1'])).get('hjob_1')).toEqual(requeued);
    }));

  it('closes the open jobs of a run except those it keeps', () =>
    withStore(async (store) => {
      await seedJobs(store, [
        ofRun('hjob_queued', 'a', 1, { lease_owner: 'wkr_1', lease_until: at(60), calls: 1 }),
        ofRun('hjob_accepted', 'b', 1, { status: 'accepted', calls: 1 }),
        ofRun('hjob_exhausted', 'c', 1, { status: 'exhausted', calls: 4 }),
        ofRun('hjob_kept', 'd', 1),
        ofRun('hjob_closed', 'e', 1, { status: 'closed', updated_at: at(5) }),
        handoffJob('hjob_other_run', 'acct_a', 'carrier', 1),
      ]);
      await store.transaction((tx) => tx.closeHandoffJobs('prun_r', ['hjob_kept'], at(40)));
      const jobs = await jobsOf(store, ['prun_r', 'prun_hjob_other_run']);
      const closed = { status: 'closed', lease_owner: null, lease_until: null, updated_at: at(40) };
      expect(jobs.get('hjob_queued')).toEqual({
        ...ofRun('hjob_queued', 'a', 1, { calls: 1 }),
        ...closed,
      });
      expect(jobs.get('hjob_accepted')).toEqual({
        ...ofRun('hjob_accepted', 'b', 1, { calls: 1 }),
        ...closed,
      });
      expect(jobs.get('hjob_exhausted')?.status).toBe('closed');
      expect(jobs.get('hjob_kept')).toEqual(ofRun('hjob_kept', 'd', 1));
      expect(jobs.get('hjob_closed')?.updated_at).toBe(at(5));
      expect(jobs.get('hjob_other_run')?.status).toBe('queued');
      // Closed jobs are never claimed; a worker still calling one cannot settle it.
      const claimed = await store.transaction((tx) => claimAll(tx, 'wkr_2', at(30), at(90)));
      expect(claimed.map((job) => job.id)).toEqual(['hjob_kept', 'hjob_other_run']);
      await expectStoreError(
        store.transaction((tx) =>
          tx.updateHandoffJob(ofRun('hjob_queued', 'a', 1), { lease_owner: 'wkr_1', calls: 1 }),
        ),
        'version_conflict',
      );
      await store.transaction((tx) => tx.closeHandoffJobs('prun_r', [], at(41)));
      expect(
        [...(await jobsOf(store, ['prun_r'])).values()].every((job) => job.status === 'closed'),
      ).toBe(true);
    }));

  it('tells when the next queued job of an environment, account or party is due', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        expect(await tx.nextHandoffJob({ environment: 'live' })).toBeUndefined();
      });
      await seedJobs(store, [
        handoffJob('hjob_accepted', 'acct_a', 'carrier', 1, { status: 'accepted' }),
        handoffJob('hjob_exhausted', 'acct_a', 'carrier', 1, { status: 'exhausted' }),
        handoffJob('hjob_closed', 'acct_a', 'carrier', 1, { status: 'closed' }),
        handoffJob('hjob_a', 'acct_a', 'carrier', 9),
        handoffJob('hjob_a_bank', 'acct_a', 'bank', 7),
        handoffJob('hjob_b', 'acct_b', 'carrier', 5),
        handoffJob('hjob_test', 'acct_a', 'carrier', 3, { environment: 'test' }),
      ]);
      await store.transaction(async (tx) => {
        expect(await tx.nextHandoffJob({ environment: 'live' })).toBe(at(5));
        expect(await tx.nextHandoffJob({ environment: 'live', account: 'acct_a' })).toBe(at(7));
        expect(
          await tx.nextHandoffJob({ environment: 'live', account: 'acct_a', party: 'carrier' }),
        ).toBe(at(9));
        expect(await tx.nextHandoffJob({ environment: 'live', party: 'bank' })).toBe(at(7));
        expect(await tx.nextHandoffJob({ environment: 'test' })).toBe(at(3));
        expect(await tx.nextHandoffJob({ environment: 'test', account: 'acct_b' })).toBeUndefined();
      });
    }));

  it("counts each party's load for one account or the whole environment", () =>
    withStore(async (store) => {
      const live = { lease_owner: 'wkr_1', lease_until: at(60), calls: 1 };
      await seedJobs(store, [
        handoffJob('hjob_a1', 'acct_a', 'carrier', 1, live),
        handoffJob('hjob_a2', 'acct_a', 'carrier', 8),
        handoffJob('hjob_a3', 'acct_a', 'carrier', 6, {
          lease_owner: 'wkr_9',
          lease_until: at(20),
        }),
        handoffJob('hjob_a4', 'acct_a', 'carrier', 2, { status: 'accepted' }),
        handoffJob('hjob_a5', 'acct_a', 'carrier', 2, { status: 'exhausted' }),
        handoffJob('hjob_a6', 'acct_a', 'carrier', 0, { status: 'closed' }),
        handoffJob('hjob_a7', 'acct_a', 'bank', 4, { status: 'accepted' }),
        handoffJob('hjob_a8', 'acct_a', 'archive', 0, { status: 'closed' }),
        handoffJob('hjob_b1', 'acct_b', 'carrier', 3),
        handoffJob('hjob_b2', 'acct_b', 'carrier', 3, live),
        handoffJob('hjob_b3', 'acct_b', 'courier', 12),
        handoffJob('hjob_t1', 'acct_a', 'carrier', 0, { environment: 'test' }),
      ]);
      const load = (party: string, counts: Partial<Record<string, number | string | null>>) => ({
        party,
        in_flight: 0,
        queued: 0,
        accepted: 0,
        exhausted: 0,
        next_attempt_at: null,
        ...counts,
      });
      await store.transaction(async (tx) => {
        expect(
          await tx.handoffPartyLoads({ environment: 'live', account: 'acct_a' }, at(30)),
        ).toEqual([
          load('bank', { accepted: 1 }),
          // a3's lease ended: queued, not in flight.
          load('carrier', {
            in_flight: 1,
            queued: 2,
            accepted: 1,
            exhausted: 1,
            next_attempt_at: at(6),
          }),
        ]);
        expect(await tx.handoffPartyLoads({ environment: 'live' }, at(30))).toEqual([
          load('bank', { accepted: 1 }),
          load('carrier', {
            in_flight: 2,
            queued: 3,
            accepted: 1,
            exhausted: 1,
            next_attempt_at: at(3),
          }),
          load('courier', { queued: 1, next_attempt_at: at(12) }),
        ]);
        // b2's call is over and its result being written: neither in flight nor queued;
        // naming a2, which no one holds, changes nothing.
        expect(
          await tx.handoffPartyLoads({ environment: 'live' }, at(30), ['hjob_b2', 'hjob_a2']),
        ).toEqual([
          load('bank', { accepted: 1 }),
          load('carrier', {
            in_flight: 1,
            queued: 3,
            accepted: 1,
            exhausted: 1,
            next_attempt_at: at(3),
          }),
          load('courier', { queued: 1, next_attempt_at: at(12) }),
        ]);
        expect(
          await tx.handoffPartyLoads({ environment: 'live', party: 'carrier' }, at(60)),
        ).toEqual([
          load('carrier', { queued: 5, accepted: 1, exhausted: 1, next_attempt_at: at(1) }),
        ]);
        expect(
          await tx.handoffPartyLoads({ environment: 'test', account: 'acct_b' }, at(30)),
        ).toEqual([]);
      });
    }));

  it('refuses job values no store keeps alike', () =>
    withStore(async (store) => {
      const refused: ((tx: StoreTransactionV1) => Promise<unknown>)[] = [
        (tx) =>
          tx.insertHandoffJobs([
            handoffJob('hjob_1', 'acct_a', 'carrier', 1, { calls: INT_MAX + 1 }),
          ]),
        (tx) =>
          tx.insertHandoffJobs([handoffJob('hjob_1', 'acct_a', 'carrier', 1, { attempt: 1.5 })]),
        (tx) =>
          tx.insertHandoffJobs([
            handoffJob('hjob_1', 'acct_a', 'carrier', 1, { request: { note: 'a\u0000b' } }),
          ]),
        (tx) => tx.handoffJobsOfRun('prun_\ud800'),
        (tx) =>
          tx.claimHandoffJobs({
            environment: 'live',
            due_at: at(1),
            lease_now: JOB_T0,
            lease_until: at(60),
            owner: 'wkr_1',
            limit: 2 ** 40,
          }),
        (tx) =>
          tx.claimHandoffJobs({
            environment: 'live',
            party: 'carrier',
            due_at: at(1),
            lease_now: JOB_T0,
            lease_until: at(60),
            owner: 'wkr_1',
            limit: 1,
            max_in_flight: Number.POSITIVE_INFINITY,
          }),
        (tx) =>
          tx.claimHandoffJobs({
            environment: 'live',
            due_at: at(1),
            lease_now: JOB_T0,
            lease_until: at(60),
            owner: 'wkr_1',
            limit: 1,
            max_per_account: INT_MAX + 1,
          }),
        (tx) =>
          tx.updateHandoffJob(handoffJob('hjob_1', 'acct_a', 'carrier', 1), {
            lease_owner: null,
            calls: -(2 ** 31) - 1,
          }),
      ];
      for (const operation of refused) {
        await expectStoreError(store.transaction(operation), 'unstorable_value');
      }
      expect(await jobsOf(store, ['prun_hjob_1'])).toEqual(new Map());
    }));
}
