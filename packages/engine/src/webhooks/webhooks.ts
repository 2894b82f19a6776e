import type { EngineContext } from '../engine-context.js';
import { createDeliveryQueue, type DeliveryQueue } from './delivery-queue.js';
import { createWebhookEndpoints, type WebhookEndpoints } from './endpoints.js';
import { createWebhookEventLog, type WebhookEventLog } from './event-log.js';
import { resealSecrets, type ResealResult } from './reseal-secrets.js';
import { createWebhookSecretBox, type WebhookSecretBox } from './secret-box.js';
import type { WebhookOptions } from './webhook-options.js';

/** Webhook endpoints, the event list, redelivery, and the queue dispatchers drain. */
export interface Webhooks extends WebhookEndpoints, WebhookEventLog {
  /** What a dispatcher claims, sends and settles (`@programrun/webhooks` runs one). */
  readonly deliveries: DeliveryQueue;
  /**
   * Seals every endpoint's signing secrets with the current key of `secretKeys`: those
   * written before a key was configured, and those of an older key (after a rotation).
   * Writes re-seal what they touch anyway; this does the rest at once.
   */
  resealSecrets(): Promise<ResealResult>;
}

/** One box per options object: keys are checked once, and imported once per key. */
const boxes = new WeakMap<WebhookOptions, WebhookSecretBox>();
const secretBoxOf = (options: WebhookOptions): WebhookSecretBox => {
  let box = boxes.get(options);
  if (!box) boxes.set(options, (box = createWebhookSecretBox(options.secretKeys ?? [])));
  return box;
};

/**
 * The engine's webhook service (used by `createEngine`).
 */
export function createWebhooks(engine: EngineContext, options: WebhookOptions): Webhooks {
  const context = {
    engine,
    options,
    allowLoopback: options.allowLoopback ?? false,
    secretBox: secretBoxOf(options),
    limits: {
      maxEndpoints: options.maxEndpoints ?? 16,
      maxEndpointsPerUrl: options.maxEndpointsPerUrl ?? 2,
    },
  };
  return {
    ...createWebhookEndpoints(context),
    ...createWebhookEventLog(context),
    deliveries: createDeliveryQueue(context),
    resealSecrets: () => resealSecrets(context),
  };
}
