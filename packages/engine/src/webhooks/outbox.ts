import { sha256Digest } from '@programrun/evidence';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { Scope, StoreTransactionV1 } from '../store/store-v1.js';
import type { WebhookDeliveryRow, WebhookEventRow } from '../store/webhook-rows.js';
import { matchesEnabledEvents } from './event-filter.js';
import {
  webhookEventBody,
  webhookEventOf,
  type WebhookEvent,
  type WebhookEventRun,
} from './webhook-event.js';

/**
 * The deterministic id of the delivery of an event to an endpoint: one per pair.
 *
 * @example
 * ```ts
 * deliveryId('evt_1', 'we_1') === deliveryId('evt_1', 'we_1'); // true
 * ```
 */
export function deliveryId(eventId: string, endpointId: string): string {
  return `wdl_${sha256Digest(`${eventId}:${endpointId}`).slice(7, 39)}`;
}

/**
 * A new pending delivery, due at `dueAt` (the environment's base clock).
 *
 * @example
 * ```ts
 * pendingDelivery(eventRow, 'we_1', '2026-01-01T00:00:00.000Z');
 * ```
 */
export function pendingDelivery(
  event: Pick<WebhookEventRow, 'id' | 'account' | 'environment'>,
  endpointId: string,
  dueAt: string,
): WebhookDeliveryRow {
  return {
    id: deliveryId(event.id, endpointId),
    event_id: event.id,
    endpoint_id: endpointId,
    account: event.account,
    environment: event.environment,
    status: 'pending',
    attempts: 0,
    schedule_attempts: 0,
    next_attempt_at: dueAt,
    lease_until: null,
    last_error: null,
    created_at: dueAt,
    updated_at: dueAt,
    delivered_at: null,
  };
}

/**
 * Writes events to the outbox inside the caller's transaction, with one pending delivery
 * per enabled endpoint of the scope that subscribes to each event's type (except
 * `excludeEndpoint`). Returns how many deliveries were queued.
 *
 * @example
 * ```ts
 * await enqueueEvents(tx, scope, events, '2026-01-01T00:00:00.000Z');
 * ```
 */
export async function enqueueEvents(
  tx: StoreTransactionV1,
  scope: Scope,
  events: readonly WebhookEvent[],
  dueAt: string,
  options: { readonly excludeEndpoint?: string } = {},
): Promise<number> {
  if (events.length === 0) return 0;
  const rows: WebhookEventRow[] = events.map((event) => ({
    id: event.id,
    account: scope.account,
    environment: scope.environment,
    type: event.type,
    created: event.created,
    run_id: event.run?.id ?? null,
    sequence: event.sequence,
    body: webhookEventBody(event),
  }));
  await tx.insertWebhookEvents(rows);
  const endpoints = (await tx.listWebhookEndpoints(scope)).filter(
    (endpoint) => endpoint.status === 'enabled' && endpoint.id !== options.excludeEndpoint,
  );
  if (endpoints.length === 0) return 0;
  const deliveries: WebhookDeliveryRow[] = [];
  for (const row of rows) {
    for (const endpoint of endpoints) {
      if (matchesEnabledEvents(endpoint.enabled_events, row.type))
        deliveries.push(pendingDelivery(row, endpoint.id, dueAt));
    }
  }
  if (deliveries.length > 0) await tx.insertWebhookDeliveries(deliveries);
  return deliveries.length;
}

/**
 * Appends lifecycle records and, in the same transaction, their events to the outbox:
 * the one way the engine writes history, so no record exists without its event.
 *
 * @example
 * ```ts
 * await appendLifecycle(tx, scope, run, records, outbox);
 * ```
 */
export async function appendLifecycle(
  tx: StoreTransactionV1,
  scope: Scope,
  run: WebhookEventRun,
  records: readonly LifecycleRecord[],
  outbox: Outbox,
): Promise<void> {
  if (records.length === 0) return;
  await tx.appendRecords(scope, records);
  const events = records.map((record) => webhookEventOf(record, run, scope.environment));
  if ((await enqueueEvents(tx, scope, events, outbox.dueAt(scope))) > 0) outbox.enqueued();
}

/** What the outbox needs from the engine: the time deliveries fall due, and a wake-up. */
export interface Outbox {
  /** Now on the scope's environment base clock (live clock, or the test base clock). */
  dueAt(scope: Scope): string;
  /** Called when deliveries were queued, so a dispatcher can start at once. */
  enqueued(): void;
}
