import { expect, it } from 'vitest';
import type { Scope, StoreV1 } from '../store/store-v1.js';
import type { WebhookDeliveryRow } from '../store/webhook-spec.js';
import { otherAccount, scope } from './fixtures.js';

const live: Scope = { account: 'acct_a', environment: 'live' };
const T0 = '2026-01-01T00:00:00.000Z';

const delivery = (
  id: string,
  owner: Scope,
  overrides: Partial<WebhookDeliveryRow> = {},
): WebhookDeliveryRow => ({
  id,
  event_id: `evt_${id}`,
  endpoint_id: 'we_1',
  ...owner,
  status: 'pending',
  attempts: 0,
  schedule_attempts: 0,
  next_attempt_at: T0,
  lease_until: null,
  last_error: null,
  created_at: T0,
  updated_at: T0,
  delivered_at: null,
  ...overrides,
});

/**
 * The outbox backlog part of the Store spec v1 contract: `countPendingWebhookDeliveries`
 * counts an environment's pending deliveries over every account, leased or not, due or not.
 */
export function defineWebhookBacklogContract(
  withStore: (test: (store: StoreV1) => Promise<void>) => Promise<void>,
): void {
  it('counts the pending deliveries of an environment over every account', () =>
    withStore(async (store) => {
      await store.transaction(async (tx) => {
        expect(typeof tx.countPendingWebhookDeliveries).toBe('function');
        expect(await tx.countPendingWebhookDeliveries!('test')).toBe(0);
        await tx.insertWebhookDeliveries([
          delivery('wdl_1', scope),
          delivery('wdl_2', scope, { next_attempt_at: '2026-01-02T00:00:00.000Z' }),
          delivery('wdl_3', otherAccount, { lease_until: '2026-01-01T00:01:00.000Z' }),
          delivery('wdl_4', scope, { status: 'delivered', next_attempt_at: null }),
          delivery('wdl_5', scope, { status: 'failed', next_attempt_at: null }),
          delivery('wdl_6', scope, { status: 'cancelled', next_attempt_at: null }),
          delivery('wdl_7', live),
        ]);
      });
      await store.transaction(async (tx) => {
        expect(await tx.countPendingWebhookDeliveries!('test')).toBe(3);
        expect(await tx.countPendingWebhookDeliveries!('live')).toBe(1);
        const pending = (await tx.getWebhookDelivery(scope, 'wdl_1'))!;
        await tx.updateWebhookDelivery(
          { ...pending, attempts: 1, status: 'delivered', next_attempt_at: null },
          0,
        );
        expect(await tx.countPendingWebhookDeliveries!('test')).toBe(2);
      });
      await expect(
        store.transaction(async (tx) => {
          const pending = (await tx.getWebhookDelivery(scope, 'wdl_2'))!;
          await tx.updateWebhookDelivery({ ...pending, attempts: 1, status: 'failed' }, 0);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await store.transaction(async (tx) => {
        expect(await tx.countPendingWebhookDeliveries!('test')).toBe(2);
      });
    }));
}
