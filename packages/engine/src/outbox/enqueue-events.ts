import { deterministicId } from '../ids/deterministic-id.js';
import type { Scope, StoreTransactionV1 } from '../store/store-v1.js';
import type { WebhookDeliveryRow, WebhookEventRow } from '../store/webhook-spec.js';
import { matchesEnabledEvents } from '../webhooks/event-filter.js';
import { webhookEventBody, type WebhookEvent } from '../webhooks/webhook-event.js';

/**
 * The deterministic id of the delivery of an event to an endpoint: one per pair.
 */
export function deliveryId(eventId: string, endpointId: string): string {
  return deterministicId('wdl', `${eventId}:${endpointId}`);
}

/**
 * A new pending delivery, due at `dueAt` (the environment's base clock).
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
 * The outbox rows of events of the scope: each with its delivered body, and the run's
 * trace context (`traceContext`) when it has one, so its deliveries join the run's trace.
 */
export function outboxRows(
  scope: Scope,
  events: readonly WebhookEvent[],
  traceContext?: string | null,
): WebhookEventRow[] {
  return events.map((event) => ({
    id: event.id,
    account: scope.account,
    environment: scope.environment,
    type: event.type,
    created: event.created,
    run_id: event.run?.id ?? null,
    sequence: event.sequence,
    body: webhookEventBody(event),
    ...(traceContext ? { trace_context: traceContext } : {}),
  }));
}

/**
 * The write side of the transactional outbox: writes events inside the caller's
 * transaction, with one pending delivery per enabled endpoint of the scope that subscribes
 * to each event's type (except `excludeEndpoint`). Returns how many deliveries were queued.
 * The events keep `traceContext` (their run's), so their deliveries join the run's trace.
 */
export async function enqueueEvents(
  tx: StoreTransactionV1,
  scope: Scope,
  events: readonly WebhookEvent[],
  dueAt: string,
  options: { readonly excludeEndpoint?: string; readonly traceContext?: string } = {},
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = outboxRows(scope, events, options.traceContext);
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
