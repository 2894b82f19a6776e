import type { RunEnvironment } from '@programrun/dsl';
import { EngineError } from '../errors.js';
import type { Transaction } from '../kernel/transaction.js';
import { enqueueEvents } from '../outbox/enqueue-events.js';
import type { Scope, StoreTransactionV1 } from '../store/store-v1.js';
import type {
  WebhookDisabledReason,
  WebhookEndpointRow,
  WebhookEventRow,
} from '../store/webhook-spec.js';
import { deterministicId } from '../ids/deterministic-id.js';
import { sealEndpoint } from './sealed-endpoint.js';
import type { WebhookEvent } from './webhook-event.js';
import type { WebhooksContext } from './webhooks-context.js';

/** The endpoint `id` of the scope, or `webhook_endpoint_not_found`. */
export async function loadEndpoint(
  tx: StoreTransactionV1,
  scope: Scope,
  id: string,
): Promise<WebhookEndpointRow> {
  const endpoint = await tx.getWebhookEndpoint(scope, id);
  if (!endpoint) {
    throw new EngineError(
      'webhook_endpoint_not_found',
      `No webhook endpoint ${id} in this account and environment.`,
    );
  }
  return endpoint;
}

/** The event `id` of the scope, or `event_not_found`. */
export async function loadEvent(
  tx: StoreTransactionV1,
  scope: Scope,
  id: string,
): Promise<WebhookEventRow> {
  const event = await tx.getWebhookEvent(scope, id);
  if (!event)
    throw new EngineError('event_not_found', `No event ${id} in this account and environment.`);
  return event;
}

/** Now on an environment's base clock (live clock, or the test base clock). */
export const baseNow = (context: WebhooksContext, environment: RunEnvironment): Date =>
  environment === 'live' ? context.engine.clocks.live() : context.engine.clocks.testBase();

/**
 * Disables an endpoint and, unless its owner asked for it, tells the account's other
 * endpoints with a `webhook_endpoint.disabled` event.
 */
export async function disableEndpoint(
  context: WebhooksContext,
  transaction: Transaction,
  scope: Scope,
  endpoint: WebhookEndpointRow,
  reason: WebhookDisabledReason,
  status: number | null,
): Promise<void> {
  const { tx } = transaction;
  const { engine } = context;
  const at = engine.liveClock.now().toISOString();
  const disabled: WebhookEndpointRow = {
    ...endpoint,
    status: 'disabled',
    disabled_reason: reason,
    disabled_at: at,
    disabled_count: endpoint.disabled_count + 1,
    updated_at: at,
  };
  await tx.updateWebhookEndpoint(await sealEndpoint(context.secretBox, disabled));
  if (reason === 'requested') return;
  const event: WebhookEvent = {
    id: deterministicId('evt', `${endpoint.id}:disabled:${disabled.disabled_count}`),
    object: 'event',
    type: 'webhook_endpoint.disabled',
    sequence: null,
    created: (await engine.clocks.now(tx, scope)).toISOString(),
    livemode: scope.environment === 'live',
    run: null,
    stage: null,
    step: null,
    data: {
      endpoint: { id: endpoint.id, url: endpoint.url },
      reason,
      status,
      failing_since: endpoint.failing_since,
      disabled_at: at,
    },
    record_hash: null,
  };
  const queued = await enqueueEvents(
    tx,
    scope,
    [event],
    engine.deliveries.dueAt(scope.environment),
    {
      excludeEndpoint: endpoint.id,
    },
  );
  if (queued > 0) engine.deliveries.afterCommit(transaction);
}
