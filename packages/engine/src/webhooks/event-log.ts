import { EngineError } from '../errors.js';
import { deliveryId, pendingDelivery } from '../outbox/enqueue-events.js';
import type { Page, Scope, StoreTransactionV1 } from '../store/store-v1.js';
import type {
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEventQuery,
} from '../store/webhook-spec.js';
import { loadEndpoint, loadEvent } from './endpoint-rows.js';
import { matchesEnabledEvents } from './event-filter.js';
import {
  toEventRecord,
  toWebhookDeliveryRecord,
  type EventRecord,
  type WebhookDeliveryRecord,
} from './webhook-records.js';
import type { WebhooksContext } from './webhooks-context.js';

const MAX_EVENT_LIST = 100;

/** The account's events, their deliveries, and redelivery. */
export interface WebhookEventLog {
  listEvents(scope: Scope, query?: Partial<WebhookEventQuery>): Promise<Page<EventRecord>>;
  getEvent(scope: Scope, id: string): Promise<EventRecord>;
  /** Every delivery of an event, with every attempt. */
  listDeliveries(scope: Scope, eventId: string): Promise<WebhookDeliveryRecord[]>;
  /**
   * Queues an event again, now, to one endpoint or to every enabled endpoint that
   * subscribes to its type or already had it; it will carry the same id and bytes.
   */
  redeliver(
    scope: Scope,
    eventId: string,
    input?: { readonly endpoint?: string | undefined },
  ): Promise<WebhookDeliveryRecord[]>;
}

async function deliveriesWithAttempts(tx: StoreTransactionV1, scope: Scope, eventId: string) {
  const deliveries = await tx.listWebhookDeliveries(scope, eventId);
  return Promise.all(
    deliveries.map(async (delivery) =>
      toWebhookDeliveryRecord(delivery, await tx.listWebhookAttempts(delivery.id)),
    ),
  );
}

/** The endpoints a redelivery goes to: the one named, or every enabled one owed or subscribed. */
async function redeliveryTargets(
  tx: StoreTransactionV1,
  scope: Scope,
  event: { readonly id: string; readonly type: string },
  endpoint: string | undefined,
): Promise<WebhookEndpointRow[]> {
  if (endpoint !== undefined) {
    const named = await loadEndpoint(tx, scope, endpoint);
    if (named.status === 'disabled') {
      throw new EngineError(
        'webhook_endpoint_disabled',
        `Webhook endpoint ${named.id} is disabled (${named.disabled_reason ?? 'requested'}); enable it first.`,
      );
    }
    return [named];
  }
  const owed = new Set(
    (await tx.listWebhookDeliveries(scope, event.id)).map((delivery) => delivery.endpoint_id),
  );
  return (await tx.listWebhookEndpoints(scope)).filter(
    (candidate) =>
      candidate.status === 'enabled' &&
      (owed.has(candidate.id) || matchesEnabledEvents(candidate.enabled_events, event.type)),
  );
}

/**
 * The event log of an engine's webhooks.
 */
export function createWebhookEventLog(context: WebhooksContext): WebhookEventLog {
  const { transactions, deliveries } = context.engine;
  return {
    listEvents(scope, query = {}) {
      const limit = Math.min(Math.max(query.limit ?? 10, 1), MAX_EVENT_LIST);
      return transactions.run(async ({ tx }) => {
        const page = await tx.listWebhookEvents(scope, { ...query, limit });
        const data = await Promise.all(
          page.data.map(async (row) =>
            toEventRecord(row, await tx.listWebhookDeliveries(scope, row.id)),
          ),
        );
        return { data, has_more: page.has_more };
      });
    },

    getEvent(scope, id) {
      return transactions.run(async ({ tx }) =>
        toEventRecord(await loadEvent(tx, scope, id), await tx.listWebhookDeliveries(scope, id)),
      );
    },

    listDeliveries(scope, eventId) {
      return transactions.run(async ({ tx }) => {
        await loadEvent(tx, scope, eventId);
        return deliveriesWithAttempts(tx, scope, eventId);
      });
    },

    redeliver(scope, eventId, input = {}) {
      return transactions.run(async (transaction) => {
        const { tx } = transaction;
        const event = await loadEvent(tx, scope, eventId);
        const targets = await redeliveryTargets(tx, scope, event, input.endpoint);
        if (targets.length === 0) {
          throw new EngineError(
            'no_webhook_endpoints',
            `No enabled webhook endpoint receives ${event.type}; register or enable one, or name one with "endpoint".`,
          );
        }
        const at = deliveries.dueAt(scope.environment);
        for (const endpoint of targets) {
          const existing = await tx.getWebhookDelivery(scope, deliveryId(event.id, endpoint.id));
          if (!existing) {
            await tx.insertWebhookDeliveries([pendingDelivery(event, endpoint.id, at)]);
            continue;
          }
          const requeued: WebhookDeliveryRow = {
            ...existing,
            status: 'pending',
            schedule_attempts: 0,
            next_attempt_at: at,
            lease_until: null,
            updated_at: at,
          };
          await tx.updateWebhookDelivery(requeued, existing.attempts);
        }
        deliveries.afterCommit(transaction);
        return deliveriesWithAttempts(tx, scope, eventId);
      });
    },
  };
}
