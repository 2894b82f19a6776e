import { expect, it } from 'vitest';
import type { WebhookEventRow } from '../store/webhook-spec.js';
import { scope, storedRun, type WithStore } from './fixtures.js';
import { at, handoffJob } from './handoff-job-fixtures.js';

/** A W3C `traceparent`, as the engine keeps it. */
const TRACE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

const event = (id: string, overrides: Partial<WebhookEventRow> = {}): WebhookEventRow => ({
  id,
  ...scope,
  type: 'program_run.created',
  created: '2026-01-01T00:00:00.000Z',
  run_id: 'prun_1',
  sequence: 1,
  body: `{"id":"${id}"}`,
  ...overrides,
});

/**
 * The Store spec v1 contract for `trace_context`, optional on runs, handoff jobs and
 * webhook events: a row written with one reads it back identical (after updates and
 * claims too); a row written without one reads back without one (absent or null).
 */
export function defineTraceContextContract(withStore: WithStore): void {
  it('keeps a run’s trace context through reads, lists and updates', () =>
    withStore(async (store) => {
      const traced = storedRun('prun_1', { idempotency_key: 'key-1', trace_context: TRACE });
      await store.transaction(async (tx) => {
        await tx.insertRun(traced);
        await tx.insertRun(storedRun('prun_2'));
      });
      await store.transaction(async (tx) => {
        expect(await tx.getRun(scope, 'prun_1')).toEqual(traced);
        expect((await tx.findRunByIdempotencyKey(scope, 'key-1'))?.trace_context).toBe(TRACE);
        expect((await tx.getRun(scope, 'prun_2'))?.trace_context ?? null).toBeNull();
        const listed = await tx.listRuns(scope, { limit: 10 });
        expect(listed.data.map((run) => [run.id, run.trace_context ?? null])).toEqual([
          ['prun_2', null],
          ['prun_1', TRACE],
        ]);
      });
      const read = await store.transaction((tx) => tx.getRun(scope, 'prun_1'));
      await store.transaction((tx) =>
        tx.updateRun({ ...read!, version: 2, status: 'completed' }, 1),
      );
      const updated = await store.transaction((tx) => tx.getRun(scope, 'prun_1'));
      expect(updated?.trace_context).toBe(TRACE);
      expect(updated?.status).toBe('completed');
    }));

  it('keeps a handoff job’s trace context through reads, claims and settles', () =>
    withStore(async (store) => {
      const traced = handoffJob('hjob_1', 'acct_a', 'bank', 10, { trace_context: TRACE });
      const plain = handoffJob('hjob_2', 'acct_a', 'bank', 20);
      await store.transaction((tx) => tx.insertHandoffJobs([traced, plain]));
      await store.transaction(async (tx) => {
        expect(await tx.handoffJobsOfRun('prun_hjob_1')).toEqual([traced]);
        const [read] = await tx.handoffJobsOfRun('prun_hjob_2');
        expect(read?.trace_context ?? null).toBeNull();
      });
      const claimed = await store.transaction((tx) =>
        tx.claimHandoffJobs({
          environment: 'live',
          due_at: at(100),
          lease_now: at(30),
          lease_until: at(300),
          owner: 'wkr_1',
          limit: 10,
        }),
      );
      expect(claimed.map((job) => [job.id, job.trace_context ?? null])).toEqual([
        ['hjob_1', TRACE],
        ['hjob_2', null],
      ]);
      const [first] = claimed;
      await store.transaction((tx) =>
        tx.updateHandoffJob(
          { ...first!, status: 'closed', lease_owner: null, lease_until: null },
          { lease_owner: first!.lease_owner, calls: first!.calls },
        ),
      );
      const [settled] = await store.transaction((tx) => tx.handoffJobsOfRun('prun_hjob_1'));
      expect(settled?.status).toBe('closed');
      expect(settled?.trace_context).toBe(TRACE);
    }));

  it('keeps a webhook event’s trace context through reads and lists', () =>
    withStore(async (store) => {
      const traced = event('evt_1', { trace_context: TRACE });
      await store.transaction((tx) =>
        tx.insertWebhookEvents([traced, event('evt_2', { sequence: 2 })]),
      );
      await store.transaction(async (tx) => {
        expect(await tx.getWebhookEvent(scope, 'evt_1')).toEqual(traced);
        expect((await tx.getWebhookEvent(scope, 'evt_2'))?.trace_context ?? null).toBeNull();
        const listed = await tx.listWebhookEvents(scope, { limit: 10 });
        expect(listed.data.map((row) => [row.id, row.trace_context ?? null])).toEqual([
          ['evt_2', null],
          ['evt_1', TRACE],
        ]);
      });
    }));
}
