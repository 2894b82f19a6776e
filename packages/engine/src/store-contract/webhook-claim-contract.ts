import { expect, it } from 'vitest';
import type { StoreV1 } from '../store/store-v1.js';
import type { WebhookClaim, WebhookDeliveryRow } from '../store/webhook-spec.js';

const T0 = '2026-01-01T00:00:00.000Z';
const LEASE_NOW = '2026-01-01T00:00:30.000Z';
const LEASED_UNTIL = '2026-01-01T00:05:00.000Z';

/** `2026-01-01T00:00:<ss>.000Z`: due times that sort by the second. */
const second = (value: number): string => `2026-01-01T00:00:${String(value).padStart(2, '0')}.000Z`;

/** A pending delivery of `account`'s endpoint `endpoint`, due at second `due`. */
const delivery = (
  id: string,
  account: string,
  endpoint: string,
  due: number,
  overrides: Partial<WebhookDeliveryRow> = {},
): WebhookDeliveryRow => ({
  id,
  event_id: 'evt_1',
  endpoint_id: endpoint,
  account,
  environment: 'test',
  status: 'pending',
  attempts: 0,
  schedule_attempts: 0,
  next_attempt_at: second(due),
  lease_until: null,
  last_error: null,
  created_at: T0,
  updated_at: T0,
  delivered_at: null,
  ...overrides,
});

const claimOf = (overrides: Partial<WebhookClaim> = {}): WebhookClaim => ({
  environment: 'test',
  due_at: second(20),
  lease_now: LEASE_NOW,
  lease_until: LEASED_UNTIL,
  limit: 10,
  ...overrides,
});

async function seed(store: StoreV1, deliveries: readonly WebhookDeliveryRow[]): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.insertWebhookEvents([
      {
        id: 'evt_1',
        account: 'acct_a',
        environment: 'test',
        type: 'program_run.created',
        created: T0,
        run_id: 'prun_1',
        sequence: 1,
        body: '{"id":"evt_1"}',
      },
    ]);
    await tx.insertWebhookDeliveries(deliveries);
  });
}

const claimIds = async (store: StoreV1, claim: WebhookClaim): Promise<string[]> =>
  (await store.transaction((tx) => tx.claimWebhookDeliveries(claim))).map((row) => row.id);

/**
 * Fair shares of `claimWebhookDeliveries` (Store spec v1): accounts take turns, and the
 * per-account and per-endpoint caps count the leases other claims still hold.
 */
export function defineWebhookClaimContract(
  withStore: (test: (store: StoreV1) => Promise<void>) => Promise<void>,
): void {
  it("lets accounts take turns, so one account's backlog never fills a claim", () =>
    withStore(async (store) => {
      await seed(store, [
        ...[1, 2, 3, 4, 5].map((due) => delivery(`wdl_a${due}`, 'acct_a', 'we_a', due)),
        delivery('wdl_b1', 'acct_b', 'we_b', 10),
        delivery('wdl_b2', 'acct_b', 'we_b', 11),
        delivery('wdl_c1', 'acct_c', 'we_c', 12, { environment: 'live' }),
      ]);
      // Turns 1 (a1, b1) and 2 (a2, b2), returned earliest due first.
      expect(await claimIds(store, claimOf({ limit: 4 }))).toEqual([
        'wdl_a1',
        'wdl_a2',
        'wdl_b1',
        'wdl_b2',
      ]);
      expect(await claimIds(store, claimOf())).toEqual(['wdl_a3', 'wdl_a4', 'wdl_a5']);
    }));

  it('caps what one account and one endpoint hold, counting leases still held', () =>
    withStore(async (store) => {
      await seed(store, [
        ...[1, 2, 3, 4].map((due) => delivery(`wdl_x${due}`, 'acct_a', 'we_x', due)),
        delivery('wdl_y5', 'acct_a', 'we_y', 5),
        delivery('wdl_y6', 'acct_a', 'we_y', 6),
        delivery('wdl_b7', 'acct_b', 'we_b', 7),
        delivery('wdl_b8', 'acct_b', 'we_b', 8),
        delivery('wdl_b9', 'acct_b', 'we_b', 9),
        // Another claim's lease that has not ended: in flight on acct_b's endpoint.
        delivery('wdl_b0', 'acct_b', 'we_b', 0, { lease_until: LEASED_UNTIL }),
        // A lease that ended: free again, and not in flight.
        delivery('wdl_z3', 'acct_z', 'we_z', 3, { lease_until: T0 }),
      ]);
      const caps = { max_per_account: 3, max_per_endpoint: 2 };
      // we_x offers x1, x2 and we_y offers y5, y6; acct_a takes its 3 earliest. acct_b
      // has b0 in flight: we_b offers b7 only. acct_z's expired lease counts for nothing.
      expect(await claimIds(store, claimOf(caps))).toEqual([
        'wdl_x1',
        'wdl_x2',
        'wdl_z3',
        'wdl_y5',
        'wdl_b7',
      ]);
      // Every share is used up until a lease ends.
      expect(await claimIds(store, claimOf(caps))).toEqual([]);
      await store.transaction(async (tx) => {
        const leased = (await tx.getWebhookDelivery(
          { account: 'acct_a', environment: 'test' },
          'wdl_x1',
        ))!;
        await tx.updateWebhookDelivery(
          { ...leased, attempts: 1, status: 'delivered', next_attempt_at: null, lease_until: null },
          0,
        );
      });
      // acct_a has 2 in flight (x2, y5): one more, from we_x (one in flight there).
      expect(await claimIds(store, claimOf(caps))).toEqual(['wdl_x3']);
      // Once every lease has ended, the caps count nothing in flight.
      expect(await claimIds(store, claimOf({ ...caps, lease_now: LEASED_UNTIL }))).toEqual([
        'wdl_b0',
        'wdl_x2',
        'wdl_x3',
        'wdl_z3',
        'wdl_y5',
        'wdl_b7',
      ]);
    }));

  it('gives a free slot to the account with the least in flight first', () =>
    withStore(async (store) => {
      await seed(store, [
        delivery('wdl_a1', 'acct_a', 'we_a1', 1, { lease_until: LEASED_UNTIL }),
        delivery('wdl_a2', 'acct_a', 'we_a2', 2, { lease_until: LEASED_UNTIL }),
        delivery('wdl_a3', 'acct_a', 'we_a3', 3),
        delivery('wdl_b9', 'acct_b', 'we_b', 9),
      ]);
      expect(await claimIds(store, claimOf({ limit: 1, max_per_account: 4 }))).toEqual(['wdl_b9']);
      expect(await claimIds(store, claimOf({ limit: 1, max_per_account: 4 }))).toEqual(['wdl_a3']);
    }));
}
