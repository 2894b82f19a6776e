import type { RunEnvironment } from '@programrun/dsl';
import { chooseFairClaim } from './memory-webhook-claim.js';
import { StoreError } from './store-error.js';
import type { Page, Scope } from './store-v1.js';
import type { UndoLog } from './undo-log.js';
import type {
  WebhookOperations,
  WebhookAttemptRow,
  WebhookClaim,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEventQuery,
  WebhookEventRow,
} from './webhook-spec.js';

/** The memory store's webhook tables. */
export interface MemoryWebhookState {
  readonly endpoints: Map<string, WebhookEndpointRow>;
  /** Endpoint ids of each scope, oldest first: every transition lists its scope's endpoints. */
  readonly endpointIds: Map<string, readonly string[]>;
  readonly events: Map<string, WebhookEventRow>;
  /** Event ids of each scope in insertion order (appended in place). */
  readonly eventOrder: Map<string, string[]>;
  /** Index of each event id in its scope's order, for cursors. */
  readonly eventPosition: Map<string, number>;
  readonly deliveries: Map<string, WebhookDeliveryRow>;
  readonly deliveriesByEvent: Map<string, string[]>;
  /** Pending deliveries only: what claims scan. */
  readonly pending: Map<string, WebhookDeliveryRow>;
  readonly attempts: Map<string, WebhookAttemptRow[]>;
}

/**
 * Empty webhook tables.
 */
export function emptyWebhookState(): MemoryWebhookState {
  return {
    endpoints: new Map(),
    endpointIds: new Map(),
    events: new Map(),
    eventOrder: new Map(),
    eventPosition: new Map(),
    deliveries: new Map(),
    deliveriesByEvent: new Map(),
    pending: new Map(),
    attempts: new Map(),
  };
}

const scopeKey = (scope: Scope): string => `${scope.account}\u0000${scope.environment}`;
const inScope = (scope: Scope, row: Scope): boolean =>
  row.account === scope.account && row.environment === scope.environment;
/**
 * The webhook tables of the memory store: endpoints, the event outbox, deliveries and
 * their attempts. Writes go through the current transaction's undo log.
 */
export function memoryWebhookTables(
  state: MemoryWebhookState,
  undo: () => UndoLog,
): WebhookOperations {
  /** none, pending (any pending), failed (any failed, none pending), or delivered. */
  const deliveryStatus = (eventId: string): 'none' | 'pending' | 'delivered' | 'failed' => {
    const ids = state.deliveriesByEvent.get(eventId) ?? [];
    const statuses = ids
      .map((id) => state.deliveries.get(id)!.status)
      .filter((status) => status !== 'cancelled');
    if (statuses.length === 0) return 'none';
    if (statuses.includes('pending')) return 'pending';
    if (statuses.includes('failed')) return 'failed';
    return 'delivered';
  };
  return {
    insertWebhookEndpoint(endpoint: WebhookEndpointRow): Promise<void> {
      if (state.endpoints.has(endpoint.id)) {
        throw new StoreError('duplicate_key', `webhook endpoint ${endpoint.id} exists`);
      }
      undo().set(state.endpoints, endpoint.id, endpoint);
      const key = scopeKey(endpoint);
      undo().set(state.endpointIds, key, [...(state.endpointIds.get(key) ?? []), endpoint.id]);
      return Promise.resolve();
    },

    getWebhookEndpoint(scope: Scope, id: string): Promise<WebhookEndpointRow | undefined> {
      const endpoint = state.endpoints.get(id);
      return Promise.resolve(endpoint && inScope(scope, endpoint) ? endpoint : undefined);
    },

    listWebhookEndpoints(scope: Scope): Promise<WebhookEndpointRow[]> {
      const ids = state.endpointIds.get(scopeKey(scope)) ?? [];
      return Promise.resolve(ids.map((id) => state.endpoints.get(id)!));
    },

    updateWebhookEndpoint(endpoint: WebhookEndpointRow): Promise<void> {
      const current = state.endpoints.get(endpoint.id);
      if (!current || !inScope(endpoint, current)) {
        throw new StoreError('not_found', `webhook endpoint ${endpoint.id} does not exist`);
      }
      undo().set(state.endpoints, endpoint.id, endpoint);
      return Promise.resolve();
    },

    deleteWebhookEndpoint(scope: Scope, id: string): Promise<void> {
      const current = state.endpoints.get(id);
      if (!current || !inScope(scope, current)) return Promise.resolve();
      undo().delete(state.endpoints, id);
      const key = scopeKey(scope);
      const remaining = (state.endpointIds.get(key) ?? []).filter((other) => other !== id);
      undo().set(state.endpointIds, key, remaining);
      return Promise.resolve();
    },

    scanWebhookEndpoints(after: string, limit: number): Promise<WebhookEndpointRow[]> {
      const ids = [...state.endpoints.keys()].filter((id) => id > after).sort();
      return Promise.resolve(ids.slice(0, limit).map((id) => state.endpoints.get(id)!));
    },

    insertWebhookEvents(events: readonly WebhookEventRow[]): Promise<void> {
      for (const event of events) {
        if (state.events.has(event.id)) {
          throw new StoreError('duplicate_key', `event ${event.id} exists`);
        }
        const key = scopeKey(event);
        let order = state.eventOrder.get(key);
        if (!order) {
          order = [];
          undo().set(state.eventOrder, key, order);
        }
        undo().set(state.eventPosition, event.id, order.length);
        undo().push(order, event.id);
        undo().set(state.events, event.id, event);
      }
      return Promise.resolve();
    },

    getWebhookEvent(scope: Scope, id: string): Promise<WebhookEventRow | undefined> {
      const event = state.events.get(id);
      return Promise.resolve(event && inScope(scope, event) ? event : undefined);
    },

    listWebhookEvents(scope: Scope, query: WebhookEventQuery): Promise<Page<WebhookEventRow>> {
      const order = state.eventOrder.get(scopeKey(scope)) ?? [];
      let start = order.length - 1;
      if (query.starting_after !== undefined) {
        const cursor = state.events.get(query.starting_after);
        const position = state.eventPosition.get(query.starting_after);
        // A cursor outside this scope yields an empty page.
        start = cursor && position !== undefined && inScope(scope, cursor) ? position - 1 : -1;
      }
      const data: WebhookEventRow[] = [];
      let hasMore = false;
      for (let index = start; index >= 0; index -= 1) {
        const event = state.events.get(order[index]!)!;
        if (query.type !== undefined && event.type !== query.type) continue;
        if (query.run_id !== undefined && event.run_id !== query.run_id) continue;
        if (
          query.delivery_status !== undefined &&
          deliveryStatus(event.id) !== query.delivery_status
        )
          continue;
        if (data.length === query.limit) {
          hasMore = true;
          break;
        }
        data.push(event);
      }
      return Promise.resolve({ data, has_more: hasMore });
    },

    insertWebhookDeliveries(deliveries: readonly WebhookDeliveryRow[]): Promise<void> {
      for (const delivery of deliveries) {
        if (state.deliveries.has(delivery.id)) {
          throw new StoreError('duplicate_key', `delivery ${delivery.id} exists`);
        }
        undo().set(state.deliveries, delivery.id, delivery);
        const byEvent = state.deliveriesByEvent.get(delivery.event_id);
        if (byEvent) undo().push(byEvent, delivery.id);
        else undo().set(state.deliveriesByEvent, delivery.event_id, [delivery.id]);
        if (delivery.status === 'pending') undo().set(state.pending, delivery.id, delivery);
      }
      return Promise.resolve();
    },

    getWebhookDelivery(scope: Scope, id: string): Promise<WebhookDeliveryRow | undefined> {
      const delivery = state.deliveries.get(id);
      return Promise.resolve(delivery && inScope(scope, delivery) ? delivery : undefined);
    },

    listWebhookDeliveries(scope: Scope, eventId: string): Promise<WebhookDeliveryRow[]> {
      const rows = (state.deliveriesByEvent.get(eventId) ?? [])
        .map((id) => state.deliveries.get(id)!)
        .filter((delivery) => inScope(scope, delivery))
        .sort((a, b) => (a.endpoint_id < b.endpoint_id ? -1 : 1));
      return Promise.resolve(rows);
    },

    updateWebhookDelivery(delivery: WebhookDeliveryRow, expectedAttempts: number): Promise<void> {
      const current = state.deliveries.get(delivery.id);
      if (!current) throw new StoreError('not_found', `delivery ${delivery.id} does not exist`);
      if (current.attempts !== expectedAttempts) {
        throw new StoreError(
          'version_conflict',
          `delivery ${delivery.id} has ${current.attempts} attempts, not ${expectedAttempts}`,
        );
      }
      undo().set(state.deliveries, delivery.id, delivery);
      if (delivery.status === 'pending') undo().set(state.pending, delivery.id, delivery);
      else undo().delete(state.pending, delivery.id);
      return Promise.resolve();
    },

    claimWebhookDeliveries(claim: WebhookClaim): Promise<WebhookDeliveryRow[]> {
      const earliest = chooseFairClaim(state.pending.values(), claim);
      const claimed = earliest.map((delivery) => ({ ...delivery, lease_until: claim.lease_until }));
      for (const delivery of claimed) {
        undo().set(state.deliveries, delivery.id, delivery);
        undo().set(state.pending, delivery.id, delivery);
      }
      return Promise.resolve(claimed);
    },

    nextWebhookAttempt(environment: RunEnvironment): Promise<string | undefined> {
      let next: string | undefined;
      for (const delivery of state.pending.values()) {
        const at = delivery.next_attempt_at;
        if (
          delivery.environment === environment &&
          at !== null &&
          (next === undefined || at < next)
        )
          next = at;
      }
      return Promise.resolve(next);
    },

    countPendingWebhookDeliveries(environment: RunEnvironment): Promise<number> {
      let count = 0;
      for (const delivery of state.pending.values())
        if (delivery.environment === environment) count += 1;
      return Promise.resolve(count);
    },

    appendWebhookAttempt(attempt: WebhookAttemptRow): Promise<void> {
      const attempts = state.attempts.get(attempt.delivery_id);
      if (attempts?.some((row) => row.attempt === attempt.attempt)) {
        throw new StoreError(
          'duplicate_key',
          `attempt ${attempt.attempt} of ${attempt.delivery_id} exists`,
        );
      }
      if (attempts) undo().push(attempts, attempt);
      else undo().set(state.attempts, attempt.delivery_id, [attempt]);
      return Promise.resolve();
    },

    listWebhookAttempts(deliveryId: string): Promise<WebhookAttemptRow[]> {
      return Promise.resolve([...(state.attempts.get(deliveryId) ?? [])]);
    },
  };
}
