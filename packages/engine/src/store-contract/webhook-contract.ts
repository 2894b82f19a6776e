import { expect, it } from 'vitest';
import { isStoreError, type StoreErrorCode } from '../store/store-error.js';
import type { Scope, StoreV1 } from '../store/store-v1.js';
import type { WebhookDeliveryRow, WebhookEventRow } from '../store/webhook-spec.js';
import { otherAccount, scope, webhookEndpoint } from './fixtures.js';

const live: Scope = { account: 'acct_a', environment: 'live' };
const T0 = '2026-01-01T00:00:00.000Z';

const endpoint = webhookEndpoint;

const event = (
  id: string,
  runId: string | null,
  sequence: number | null,
  overrides: Partial<WebhookEventRow> = {},
): WebhookEventRow => ({
  id,
  ...scope,
  type: 'program_run.stage.started',
  created: T0,
  run_id: runId,
  sequence,
  body: `{"id":"${id}"}`,
  ...overrides,
});

const delivery = (
  id: string,
  eventId: string,
  dueAt: string | null,
  overrides: Partial<WebhookDeliveryRow> = {},
): WebhookDeliveryRow => ({
  id,
  event_id: eventId,
  endpoint_id: 'we_1',
  ...scope,
  status: 'pending',
  attempts: 0,
  schedule_attempts: 0,
  next_attempt_at: dueAt,
  lease_until: null,
  last_error: null,
  created_at: T0,
  updated_at: T0,
  delivered_at: null,
  ...overrides,
});

async function expectCode(promise: Promise<unknown>, code: StoreErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isStoreError(error, code), `expected ${code}, got ${String(error)}`).toBe(true);
}

/**
 * The webhook part of the Store spec v1 contract (endpoints, the event outbox,
 * deliveries with leases, attempts); `defineStoreContract` runs it for every store.
 */
export function defineWebhookStoreContract(
  withStore: (test: (store: StoreV1) => Promise<void>) => Promise<void>,
): void {
  it('keeps webhook endpoints per scope, oldest first, and updates and deletes them', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        await tx.insertWebhookEndpoint(endpoint('we_1'));
        await tx.insertWebhookEndpoint(
          endpoint('we_2', { created_at: '2026-01-02T00:00:00.000Z' }),
        );
        await tx.insertWebhookEndpoint(endpoint('we_3', { ...otherAccount }));
      });
      await expectCode(
        store.transaction((tx) => tx.insertWebhookEndpoint(endpoint('we_1'))),
        'duplicate_key',
      );
      await store.transaction(async (tx) => {
        expect((await tx.listWebhookEndpoints(scope)).map((row) => row.id)).toEqual([
          'we_1',
          'we_2',
        ]);
        expect(await tx.getWebhookEndpoint(otherAccount, 'we_1')).toBeUndefined();
        expect(await tx.getWebhookEndpoint(live, 'we_1')).toBeUndefined();
        expect(await tx.getWebhookEndpoint(scope, 'we_1')).toEqual(endpoint('we_1'));
        await tx.updateWebhookEndpoint(
          endpoint('we_1', { status: 'disabled', disabled_reason: 'gone' }),
        );
        await tx.deleteWebhookEndpoint(scope, 'we_2');
        await tx.deleteWebhookEndpoint(scope, 'we_3'); // another account's: untouched
      });
      await expectCode(
        store.transaction((tx) => tx.updateWebhookEndpoint(endpoint('we_9'))),
        'not_found',
      );
      await store.transaction(async (tx) => {
        expect((await tx.getWebhookEndpoint(scope, 'we_1'))?.disabled_reason).toBe('gone');
        expect(await tx.getWebhookEndpoint(scope, 'we_2')).toBeUndefined();
        expect(await tx.getWebhookEndpoint(otherAccount, 'we_3')).toBeDefined();
      });
    }));

  it('lists outbox events newest first with filters and cursors, scoped', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        await tx.insertWebhookEvents([event('evt_1', 'prun_1', 1), event('evt_2', 'prun_1', 2)]);
        await tx.insertWebhookEvents([
          event('evt_3', 'prun_2', 1, { type: 'program_run.created' }),
          event('evt_4', null, null, { type: 'webhook_endpoint.disabled' }),
          event('evt_5', 'prun_3', 1, { ...otherAccount }),
        ]);
        await tx.insertWebhookDeliveries([
          delivery('wdl_1', 'evt_1', T0),
          delivery('wdl_2', 'evt_2', null, { status: 'delivered' }),
          delivery('wdl_3', 'evt_3', null, { status: 'failed' }),
        ]);
      });
      await expectCode(
        store.transaction((tx) => tx.insertWebhookEvents([event('evt_1', 'prun_1', 1)])),
        'duplicate_key',
      );
      await store.transaction(async (tx) => {
        const ids = async (query: Parameters<typeof tx.listWebhookEvents>[1]) =>
          (await tx.listWebhookEvents(scope, query)).data.map((row) => row.id);
        expect(await ids({ limit: 10 })).toEqual(['evt_4', 'evt_3', 'evt_2', 'evt_1']);
        expect(await tx.listWebhookEvents(scope, { limit: 2 })).toMatchObject({ has_more: true });
        expect(await ids({ limit: 2, starting_after: 'evt_3' })).toEqual(['evt_2', 'evt_1']);
        expect(
          await tx.listWebhookEvents(scope, { limit: 2, starting_after: 'evt_3' }),
        ).toMatchObject({
          has_more: false,
        });
        expect(await ids({ limit: 10, starting_after: 'evt_5' })).toEqual([]);
        expect(await ids({ limit: 10, run_id: 'prun_1' })).toEqual(['evt_2', 'evt_1']);
        expect(await ids({ limit: 10, type: 'program_run.created' })).toEqual(['evt_3']);
        expect(await ids({ limit: 10, delivery_status: 'pending' })).toEqual(['evt_1']);
        expect(await ids({ limit: 10, delivery_status: 'delivered' })).toEqual(['evt_2']);
        expect(await ids({ limit: 10, delivery_status: 'failed' })).toEqual(['evt_3']);
        expect(await ids({ limit: 10, delivery_status: 'none' })).toEqual(['evt_4']);
        expect(await tx.getWebhookEvent(otherAccount, 'evt_1')).toBeUndefined();
        expect((await tx.getWebhookEvent(scope, 'evt_1'))?.body).toBe('{"id":"evt_1"}');
        expect((await tx.listWebhookDeliveries(scope, 'evt_1')).map((row) => row.id)).toEqual([
          'wdl_1',
        ]);
        expect(await tx.listWebhookDeliveries(otherAccount, 'evt_1')).toEqual([]);
      });
    }));

  it('claims due pending deliveries with leases, earliest first, per environment', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        await tx.insertWebhookEvents([
          event('evt_1', 'prun_1', 1),
          event('evt_2', 'prun_1', 2, live),
        ]);
        await tx.insertWebhookDeliveries([
          delivery('wdl_b', 'evt_1', '2026-01-01T00:00:05.000Z'),
          delivery('wdl_a', 'evt_1', '2026-01-01T00:00:05.000Z', { endpoint_id: 'we_2' }),
          delivery('wdl_c', 'evt_1', '2026-01-01T00:00:01.000Z', { endpoint_id: 'we_3' }),
          delivery('wdl_late', 'evt_1', '2026-01-01T01:00:00.000Z', { endpoint_id: 'we_4' }),
          delivery('wdl_done', 'evt_1', null, { endpoint_id: 'we_5', status: 'delivered' }),
          delivery('wdl_live', 'evt_2', T0, { ...live }),
        ]);
      });
      const claim = (leaseNow: string, limit = 10) =>
        store.transaction((tx) =>
          tx.claimWebhookDeliveries({
            environment: 'test',
            due_at: '2026-01-01T00:00:10.000Z',
            lease_now: leaseNow,
            lease_until: '2026-01-01T00:01:00.000Z',
            limit,
          }),
        );
      const first = await claim(T0, 2);
      expect(first.map((row) => row.id)).toEqual(['wdl_c', 'wdl_a']);
      expect(first.every((row) => row.lease_until === '2026-01-01T00:01:00.000Z')).toBe(true);
      expect((await claim(T0)).map((row) => row.id)).toEqual(['wdl_b']);
      expect(await claim(T0)).toEqual([]);
      // Leases that ended are taken over (a crashed dispatcher's work is picked up).
      expect((await claim('2026-01-01T00:01:00.000Z')).map((row) => row.id)).toEqual([
        'wdl_c',
        'wdl_a',
        'wdl_b',
      ]);
      await store.transaction(async (tx) => {
        expect(await tx.nextWebhookAttempt('test')).toBe('2026-01-01T00:00:01.000Z');
        expect(await tx.nextWebhookAttempt('live')).toBe(T0);
        const leased = (await tx.getWebhookDelivery(scope, 'wdl_c'))!;
        await tx.updateWebhookDelivery(
          { ...leased, attempts: 1, status: 'delivered', next_attempt_at: null, lease_until: null },
          0,
        );
      });
      await expectCode(
        store.transaction(async (tx) =>
          tx.updateWebhookDelivery(
            { ...(await tx.getWebhookDelivery(scope, 'wdl_c'))!, attempts: 2 },
            0,
          ),
        ),
        'version_conflict',
      );
      await store.transaction(async (tx) => {
        expect((await tx.getWebhookDelivery(scope, 'wdl_c'))?.status).toBe('delivered');
        expect(await tx.getWebhookDelivery(otherAccount, 'wdl_c')).toBeUndefined();
        expect(await tx.nextWebhookAttempt('test')).toBe('2026-01-01T00:00:05.000Z');
      });
      expect((await claim('2026-01-01T00:02:00.000Z')).map((row) => row.id)).toEqual([
        'wdl_a',
        'wdl_b',
      ]);
    }));

  it('keeps every attempt of a delivery in order, once each', () =>
    withStore(async (store) => {
      const attempt = (number: number) => ({
        delivery_id: 'wdl_1',
        attempt: number,
        started_at: T0,
        status: number === 1 ? null : 200,
        latency_ms: 12,
        error_code: number === 1 ? 'timeout' : null,
        error_message: number === 1 ? 'no answer in 10000 ms' : null,
        response_excerpt: null,
      });
      await store.transaction(async (tx) => {
        await tx.appendWebhookAttempt(attempt(1));
        await tx.appendWebhookAttempt(attempt(2));
      });
      await expectCode(
        store.transaction((tx) => tx.appendWebhookAttempt(attempt(2))),
        'duplicate_key',
      );
      await store.transaction(async (tx) => {
        expect(await tx.listWebhookAttempts('wdl_1')).toEqual([attempt(1), attempt(2)]);
        expect(await tx.listWebhookAttempts('wdl_2')).toEqual([]);
      });
    }));

  it('rolls back webhook writes of a transaction that throws', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        await tx.insertWebhookEvents([event('evt_1', 'prun_1', 1)]);
        await tx.insertWebhookDeliveries([delivery('wdl_1', 'evt_1', T0)]);
      });
      await expect(
        store.transaction(async (tx) => {
          await tx.insertWebhookEndpoint(endpoint('we_1'));
          await tx.insertWebhookEvents([event('evt_2', 'prun_1', 2)]);
          await tx.insertWebhookDeliveries([delivery('wdl_2', 'evt_2', T0)]);
          await tx.claimWebhookDeliveries({
            environment: 'test',
            due_at: T0,
            lease_now: T0,
            lease_until: '2026-01-01T00:01:00.000Z',
            limit: 10,
          });
          await tx.appendWebhookAttempt({
            delivery_id: 'wdl_1',
            attempt: 1,
            started_at: T0,
            status: 200,
            latency_ms: 1,
            error_code: null,
            error_message: null,
            response_excerpt: null,
          });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      await store.transaction(async (tx) => {
        expect(await tx.listWebhookEndpoints(scope)).toEqual([]);
        expect(
          (await tx.listWebhookEvents(scope, { limit: 10 })).data.map((row) => row.id),
        ).toEqual(['evt_1']);
        expect(await tx.getWebhookDelivery(scope, 'wdl_2')).toBeUndefined();
        expect((await tx.getWebhookDelivery(scope, 'wdl_1'))?.lease_until).toBeNull();
        expect(await tx.listWebhookAttempts('wdl_1')).toEqual([]);
        await tx.insertWebhookEvents([event('evt_2', 'prun_1', 2)]);
        expect(
          (await tx.listWebhookEvents(scope, { limit: 10 })).data.map((row) => row.id),
        ).toEqual(['evt_2', 'evt_1']);
      });
    }));
}
