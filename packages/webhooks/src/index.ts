export { createWebhookDispatcher } from './dispatcher.js';
export type { WebhookDispatcher, WebhookDispatcherOptions } from './dispatcher.js';
export {
  createWebhookAgents,
  isSuccessfulAttempt,
  sendWebhook,
  RESPONSE_BODY_LIMIT,
  WEBHOOK_USER_AGENT,
} from './send-webhook.js';
export type {
  DeliveryAttemptResult,
  DeliveryError,
  DeliveryErrorCode,
  WebhookAgents,
  WebhookRequest,
} from './send-webhook.js';
export { createGuardedLookup, systemResolver } from './guarded-lookup.js';
export type {
  GuardedLookupOptions,
  ResolvedAddress,
  ResolveQuery,
  Resolver,
} from './guarded-lookup.js';
