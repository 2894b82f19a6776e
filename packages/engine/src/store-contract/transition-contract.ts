import { expect, it } from 'vitest';
import { deliveryId } from '../outbox/enqueue-events.js';
import { lifecycleEventRows } from '../outbox/lifecycle-events.js';
import type {
  HandoffJobRow,
  Scope,
  StoreTransactionV1,
  StoreV1,
  TransitionWrite,
} from '../store/store-v1.js';
import { transitionByOperations } from '../store/transition-by-operations.js';
import {
  expectStoreError,
  otherAccount,
  otherEnvironment,
  record,
  scope,
  storedRun,
  timer,
  webhookEndpoint,
  type WithStore,
} from './fixtures.js';
import { handoffJob } from './handoff-job-fixtures.js';

const AT = '2026-01-01T00:10:00.000Z';

/** Record `sequence` of `runId`, of lifecycle event `type`. */
const typed = (runId: string, sequence: number, type: string) => ({
  ...record(runId, sequence),
  type,
});

/**
 * Two runs written alike, one by the store's `writeTransition` and one by the operations
 * one by one (`transitionByOperations`), whose written states are compared.
 */
const COMPARED_RUNS = [
  [scope, 'prun_1'],
  [otherAccount, 'prun_2'],
] as const;

/** A job of `runId` in `within`, queued or in another status. */
const job = (within: Scope, runId: string, step: string, overrides = {}) =>
  handoffJob(`${runId}_${step}`, within.account, 'bank', 0, {
    run_id: runId,
    environment: within.environment,
    step,
    ...overrides,
  });

/** A run in `within` at version 1 with two pending timers and an open handoff job. */
async function seedRun(store: StoreV1, within: Scope, runId: string): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.insertRun(storedRun(runId, { ...within }));
    await tx.scheduleTimers([
      timer(`${runId}_late`, '2026-01-01T02:00:00.000Z', { run_id: runId, ...within }),
      timer(`${runId}_early`, '2026-01-01T01:00:00.000Z', { run_id: runId, ...within }),
    ]);
    await tx.insertHandoffJobs([job(within, runId, 'screen')]);
  });
}

/** Endpoints of `within`: every event, handoff events only, disabled, and an unknown type. */
async function seedEndpoints(store: StoreV1, within: Scope, prefix: string): Promise<void> {
  await store.transaction(async (tx) => {
    for (const endpoint of [
      webhookEndpoint(`${prefix}_all`, { ...within }),
      webhookEndpoint(`${prefix}_handoffs`, {
        ...within,
        enabled_events: ['program_run.handoff.*'],
      }),
      webhookEndpoint(`${prefix}_off`, { ...within, status: 'disabled' }),
      webhookEndpoint(`${prefix}_completed`, {
        ...within,
        enabled_events: ['program_run.completed'],
      }),
    ])
      await tx.insertWebhookEndpoint(endpoint);
  });
}

/** The next transition of the seeded run: version 2, two records, timers and jobs moved. */
function nextTransition(within: Scope, runId: string): TransitionWrite {
  return {
    scope: within,
    run: storedRun(runId, { ...within, version: 2, last_sequence: 2 }),
    expectedVersion: 1,
    records: [
      typed(runId, 1, 'program_run.handoff.confirmed'),
      typed(runId, 2, 'program_run.step.started'),
    ],
    deliveriesDueAt: AT,
    scheduleTimers: [
      timer(`${runId}_next`, '2026-01-01T03:00:00.000Z', { run_id: runId, ...within }),
    ],
    cancelTimers: [`${runId}_early`],
    firedTimer: `${runId}_late`,
    closeHandoffJobs: { keep: [], at: AT },
    insertHandoffJobs: [job(within, runId, 'deliver')],
    settleHandoffJob: null,
  };
}

/** The seeded run's open job, leased to `owner` for its first call. */
async function leaseJob(store: StoreV1, within: Scope, runId: string, owner: string) {
  const queued = job(within, runId, 'screen');
  const leased = { ...queued, calls: 1, lease_owner: owner, lease_until: AT };
  await store.transaction((tx) => tx.updateHandoffJob(leased, { lease_owner: null, calls: 0 }));
  return leased;
}

/** The seeded run's next transition settling its leased job, as a worker holding `held`. */
function settlingTransition(
  within: Scope,
  runId: string,
  leased: HandoffJobRow,
  held: string,
): TransitionWrite {
  return {
    ...nextTransition(within, runId),
    closeHandoffJobs: null,
    settleHandoffJob: {
      job: { ...leased, status: 'closed', lease_owner: null, lease_until: null, updated_at: AT },
      expected: { lease_owner: held, calls: leased.calls },
    },
  };
}

/** Everything a transition may have written for a run. */
async function writtenState(tx: StoreTransactionV1, within: Scope, runId: string) {
  const events = await tx.listWebhookEvents(within, { run_id: runId, limit: 10 });
  const deliveries = await Promise.all(
    events.data.map((row) => tx.listWebhookDeliveries(within, row.id)),
  );
  return {
    run: await tx.getRun(within, runId),
    records: await tx.listRecords(within, runId),
    events: events.data,
    // Delivery ids digest the event and endpoint ids; checked on their own.
    deliveries: deliveries.flat().map((row) => ({ ...row, id: '-' })),
    timers: await tx.pendingTimers(runId),
    jobs: await tx.handoffJobsOfRun(runId),
  };
}

/** A run's written state with its id and account named alike, to compare two runs. */
const alike = (state: unknown, runId: string, within: Scope): unknown =>
  JSON.parse(JSON.stringify(state).replaceAll(runId, 'RUN').replaceAll(within.account, 'ACCT'));

/**
 * The Store spec v1 contract for a transition's one read and one write: the run with its
 * pending timers and test clock; every part of the write applied together, fanned out to
 * the subscribed endpoints exactly as the operations one by one would, or nothing at all.
 */
export function defineTransitionContract(withStore: WithStore): void {
  it('reads a run with its pending timers in due order and its account test clock', () =>
    withStore(async (store) => {
      await seedRun(store, scope, 'prun_1');
      await seedRun(store, otherEnvironment, 'prun_2');
      await store.transaction(async (tx) => {
        await tx.putTestClock({ account: scope.account, offset_ms: 90_000, updated_at: AT });
        await tx.settleTimers(['prun_1_late'], 'fired');
        await tx.scheduleTimers([
          timer('prun_1_later', '2026-01-01T04:00:00.000Z', { run_id: 'prun_1' }),
        ]);
      });
      await store.transaction(async (tx) => {
        const loaded = await tx.loadRunForTransition(scope, 'prun_1');
        expect(loaded?.run).toEqual(await tx.getRun(scope, 'prun_1'));
        expect(loaded?.pendingTimers).toEqual(await tx.pendingTimers('prun_1'));
        expect(loaded?.pendingTimers.map((row) => row.id)).toEqual([
          'prun_1_early',
          'prun_1_later',
        ]);
        expect(loaded?.testClock).toEqual(await tx.getTestClock(scope.account));
        // A live run has no test clock; another scope's run is not found.
        const live = await tx.loadRunForTransition(otherEnvironment, 'prun_2');
        expect(live?.testClock).toBeUndefined();
        expect(live?.pendingTimers).toHaveLength(2);
        expect(await tx.loadRunForTransition(otherAccount, 'prun_1')).toBeUndefined();
        expect(await tx.loadRunForTransition(scope, 'prun_missing')).toBeUndefined();
      });
    }));

  it('writes a whole transition as the operations one by one would, deliveries included', () =>
    withStore(async (store) => {
      for (const [within, runId] of COMPARED_RUNS) {
        await seedRun(store, within, runId);
        await seedEndpoints(store, within, `we_${within.account}`);
      }
      const written = await store.transaction((tx) =>
        tx.writeTransition(nextTransition(scope, 'prun_1')),
      );
      const composed = await store.transaction((tx) =>
        transitionByOperations(tx).writeTransition(nextTransition(otherAccount, 'prun_2')),
      );
      // Two events to the catch-all endpoint, the handoff event to the prefix subscriber.
      expect(written).toEqual({ deliveries: 3 });
      expect(composed).toEqual(written);
      await store.transaction(async (tx) => {
        const state = await writtenState(tx, scope, 'prun_1');
        expect(alike(state, 'prun_1', scope)).toEqual(
          alike(await writtenState(tx, otherAccount, 'prun_2'), 'prun_2', otherAccount),
        );
        expect(state.run?.version).toBe(2);
        // Each record's event, with the body derived from it, newest first.
        const write = nextTransition(scope, 'prun_1');
        expect(state.events).toEqual(lifecycleEventRows(write.run, write.records).reverse());
        expect(state.records.map((row) => row.sequence)).toEqual([1, 2]);
        expect(state.timers.map((row) => row.id)).toEqual(['prun_1_next']);
        expect(state.jobs.map((row) => [row.step, row.status])).toEqual([
          ['deliver', 'queued'],
          ['screen', 'closed'],
        ]);
        const [confirmed] = (await tx.listWebhookEvents(scope, { limit: 10 })).data.slice(-1);
        expect(
          (await tx.listWebhookDeliveries(scope, confirmed!.id)).map((row) => row.id).sort(),
        ).toEqual(
          [`we_${scope.account}_all`, `we_${scope.account}_handoffs`]
            .map((endpoint) => deliveryId(confirmed!.id, endpoint))
            .sort(),
        );
      });
    }));

  it('writes nothing at all when the run moved on (compare-and-swap)', () =>
    withStore(async (store) => {
      await seedRun(store, scope, 'prun_1');
      await seedEndpoints(store, scope, 'we');
      const before = await store.transaction((tx) => writtenState(tx, scope, 'prun_1'));
      await expectStoreError(
        store.transaction((tx) =>
          tx.writeTransition({ ...nextTransition(scope, 'prun_1'), expectedVersion: 7 }),
        ),
        'version_conflict',
      );
      // Inside a transaction the caller goes on with: the failed write left nothing.
      await store.transaction(async (tx) => {
        await tx
          .writeTransition({ ...nextTransition(scope, 'prun_1'), expectedVersion: 2 })
          .catch(() => undefined);
        expect(await writtenState(tx, scope, 'prun_1')).toEqual(before);
      });
      expect(await store.transaction((tx) => writtenState(tx, scope, 'prun_1'))).toEqual(before);
    }));

  it("writes a settled job's next row with the transition only while its worker holds it", () =>
    withStore(async (store) => {
      const leased: HandoffJobRow[] = [];
      for (const [within, runId] of COMPARED_RUNS) {
        await seedRun(store, within, runId);
        leased.push(await leaseJob(store, within, runId, 'worker-a'));
      }
      await store.transaction((tx) =>
        tx.writeTransition(settlingTransition(scope, 'prun_1', leased[0]!, 'worker-a')),
      );
      await store.transaction((tx) =>
        transitionByOperations(tx).writeTransition(
          settlingTransition(otherAccount, 'prun_2', leased[1]!, 'worker-a'),
        ),
      );
      await store.transaction(async (tx) => {
        const state = await writtenState(tx, scope, 'prun_1');
        expect(alike(state, 'prun_1', scope)).toEqual(
          alike(await writtenState(tx, otherAccount, 'prun_2'), 'prun_2', otherAccount),
        );
        expect(state.run?.version).toBe(2);
        expect(state.jobs.map((row) => [row.step, row.status, row.calls, row.lease_owner])).toEqual(
          [
            ['deliver', 'queued', 0, null],
            ['screen', 'closed', 1, null],
          ],
        );
      });

      // Another worker took the call over (or the job is gone): nothing is written, even in
      // a transaction that goes on.
      await seedRun(store, scope, 'prun_3');
      const taken = await leaseJob(store, scope, 'prun_3', 'worker-b');
      const before = await store.transaction((tx) => writtenState(tx, scope, 'prun_3'));
      const notHeld: [HandoffJobRow, string | null][] = [
        [{ ...taken, status: 'closed' }, 'worker-a'],
        [{ ...taken, status: 'closed' }, null],
        [{ ...taken, id: 'job_gone' }, 'worker-b'],
      ];
      for (const [next, held] of notHeld)
        await expectStoreError(
          store.transaction((tx) =>
            tx.writeTransition({
              ...nextTransition(scope, 'prun_3'),
              closeHandoffJobs: null,
              settleHandoffJob: { job: next, expected: { lease_owner: held, calls: taken.calls } },
            }),
          ),
          'lease_lost',
        );
      await store.transaction(async (tx) => {
        for (const [next, held] of notHeld)
          await tx
            .writeTransition({
              ...nextTransition(scope, 'prun_3'),
              closeHandoffJobs: null,
              settleHandoffJob: { job: next, expected: { lease_owner: held, calls: taken.calls } },
            })
            .catch(() => undefined);
        expect(await writtenState(tx, scope, 'prun_3')).toEqual(before);
      });
      // A run no longer at the expected version is a conflict first.
      await expectStoreError(
        store.transaction((tx) =>
          tx.writeTransition({
            ...nextTransition(scope, 'prun_3'),
            expectedVersion: 9,
            closeHandoffJobs: null,
            settleHandoffJob: { job: taken, expected: { lease_owner: 'worker-a', calls: 1 } },
          }),
        ),
        'version_conflict',
      );
      expect(await store.transaction((tx) => writtenState(tx, scope, 'prun_3'))).toEqual(before);
    }));

  it('inserts a new run with its first records, and refuses an id that exists', () =>
    withStore(async (store) => {
      const creationOf = (runId: string): TransitionWrite => ({
        ...nextTransition(scope, runId),
        run: storedRun(runId, { idempotency_key: 'key-9' }),
        expectedVersion: null,
        cancelTimers: [],
        firedTimer: null,
        closeHandoffJobs: null,
      });
      const creation = creationOf('prun_9');
      expect(await store.transaction((tx) => tx.writeTransition(creation))).toEqual({
        deliveries: 0,
      });
      const state = await store.transaction((tx) => writtenState(tx, scope, 'prun_9'));
      expect(state.run).toEqual(creation.run);
      expect(state.records).toHaveLength(2);
      expect(state.timers.map((row) => row.id)).toEqual(['prun_9_next']);
      await expectStoreError(
        store.transaction((tx) => tx.writeTransition(creationOf('prun_10'))),
        'duplicate_key',
      );
      expect(await store.transaction((tx) => tx.getRun(scope, 'prun_10'))).toBeUndefined();
    }));

  it("refuses a write whose run is not of the write's scope, writing nothing", () =>
    withStore(async (store) => {
      await seedRun(store, otherAccount, 'prun_2');
      await seedEndpoints(store, scope, 'we');
      const before = await store.transaction((tx) => writtenState(tx, otherAccount, 'prun_2'));
      // The other account's run, in a write of this scope: its events must never reach
      // this scope's endpoints.
      await expect(
        store.transaction((tx) =>
          tx.writeTransition({ ...nextTransition(otherAccount, 'prun_2'), scope }),
        ),
      ).rejects.toThrow(TypeError);
      expect(await store.transaction((tx) => writtenState(tx, otherAccount, 'prun_2'))).toEqual(
        before,
      );
    }));

  it('refuses a write with a record, timer or job of another run, writing nothing', () =>
    withStore(async (store) => {
      await seedRun(store, scope, 'prun_1');
      await seedRun(store, scope, 'prun_2');
      const before = await store.transaction((tx) => writtenState(tx, scope, 'prun_2'));
      const write = nextTransition(scope, 'prun_1');
      const other = nextTransition(scope, 'prun_2');
      const foreign: TransitionWrite[] = [
        { ...write, records: other.records },
        { ...write, scheduleTimers: other.scheduleTimers },
        { ...write, insertHandoffJobs: other.insertHandoffJobs },
      ];
      for (const refused of foreign) {
        await expect(store.transaction((tx) => tx.writeTransition(refused))).rejects.toThrow(
          /every part of a write is its run's/,
        );
      }
      expect(await store.transaction((tx) => writtenState(tx, scope, 'prun_2'))).toEqual(before);
      expect(await store.transaction((tx) => tx.getRun(scope, 'prun_1'))).toMatchObject({
        version: 1,
      });
    }));

  it('refuses a write with a value no store can keep, in any part', () =>
    withStore(async (store) => {
      await seedRun(store, scope, 'prun_1');
      const write = nextTransition(scope, 'prun_1');
      const refused: TransitionWrite[] = [
        { ...write, records: [{ ...record('prun_1', 1), step: 'a\u0000b' }] },
        { ...write, scheduleTimers: [{ ...write.scheduleTimers[0]!, attempt: 2 ** 31 }] },
        { ...write, insertHandoffJobs: [{ ...write.insertHandoffJobs[0]!, calls: -(2 ** 32) }] },
      ];
      for (const bad of refused)
        await expectStoreError(
          store.transaction((tx) => tx.writeTransition(bad)),
          'unstorable_value',
        );
      expect((await store.transaction((tx) => tx.getRun(scope, 'prun_1')))?.version).toBe(1);
    }));
}
