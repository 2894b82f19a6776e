import { expect, it } from 'vitest';
import type { Scope, StoreV1 } from '../store/store-v1.js';
import type { WebhookEndpointRow } from '../store/webhook-spec.js';
import { webhookEndpoint } from './fixtures.js';

const T0 = '2026-01-01T00:00:00.000Z';

const SEALED = [
  { secret: 'sealed:v1:0123456789ab:AAAA', last4: 'LaSw', created_at: T0, expires_at: null },
];
const endpoint = (id: string, scope: Scope): WebhookEndpointRow =>
  webhookEndpoint(id, { ...scope, secrets: SEALED });

/**
 * `scanWebhookEndpoints` (Store spec v1): every scope's endpoints by id, in pages, for
 * maintenance such as sealing signing secrets again.
 */
export function defineWebhookScanContract(
  withStore: (test: (store: StoreV1) => Promise<void>) => Promise<void>,
): void {
  it('scans the endpoints of every scope by id, in pages, keeping secrets as given', () =>
    withStore(async (store) => {
      const rows = [
        endpoint('we_c', { account: 'acct_a', environment: 'test' }),
        endpoint('we_a', { account: 'acct_b', environment: 'live' }),
        endpoint('we_b', { account: 'acct_a', environment: 'live' }),
        endpoint('we_d', { account: 'acct_c', environment: 'test' }),
      ];
      await store.transaction(async (tx) => {
        for (const row of rows) await tx.insertWebhookEndpoint(row);
      });
      await store.transaction(async (tx) => {
        const first = await tx.scanWebhookEndpoints('', 3);
        expect(first.map((row) => row.id)).toEqual(['we_a', 'we_b', 'we_c']);
        expect(first[0]).toEqual(rows[1]);
        expect((await tx.scanWebhookEndpoints('we_c', 3)).map((row) => row.id)).toEqual(['we_d']);
        expect(await tx.scanWebhookEndpoints('we_d', 3)).toEqual([]);
        await tx.deleteWebhookEndpoint({ account: 'acct_a', environment: 'live' }, 'we_b');
        expect((await tx.scanWebhookEndpoints('we_a', 10)).map((row) => row.id)).toEqual([
          'we_c',
          'we_d',
        ]);
      });
    }));
}
