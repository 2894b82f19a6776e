import type { EngineContext } from '../engine-context.js';
import { createDeliveryQueue, type DeliveryQueue } from './delivery-queue.js';
import { createWebhookEndpoints, type WebhookEndpoints } from './endpoints.js';
import { createWebhookEventLog, type WebhookEventLog } from './event-log.js';
import type { WebhookOptions } from './webhook-options.js';

/** Webhook endpoints, the event list, redelivery, and the queue dispatchers drain. */
export interface Webhooks extends WebhookEndpoints, WebhookEventLog {
  /** What a dispatcher claims, sends and settles (`@programrun/webhooks` runs one). */
  readonly deliveries: DeliveryQueue;
}

/**
 * The engine's webhook service (used by `createEngine`).
 */
export function createWebhooks(engine: EngineContext, options: WebhookOptions): Webhooks {
  const context = {
    engine,
    options,
    allowLoopback: options.allowLoopback ?? false,
    maxEndpoints: options.maxEndpoints ?? 16,
  };
  return {
    ...createWebhookEndpoints(context),
    ...createWebhookEventLog(context),
    deliveries: createDeliveryQueue(context),
  };
}
