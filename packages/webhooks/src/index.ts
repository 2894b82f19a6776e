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
export { createHttpConnector, DEFAULT_CONNECTOR_TIMEOUT_MS } from './connectors/http-connector.js';
export type { HttpConnectorOptions } from './connectors/http-connector.js';
export { classifyAttempt, HANDOFF_ANSWER_LIMIT } from './connectors/classify-attempt.js';
export { parseHandoffAnswer, MAX_REFERENCE_LENGTH } from './connectors/parse-answer.js';
export type { ParsedAnswer } from './connectors/parse-answer.js';
// The connector contract lives in the engine (which calls connectors); re-exported here.
export { PermanentConnectorError, TransientConnectorError } from '@programrun/engine';
export type {
  HandoffAnswer,
  HandoffConnector,
  HandoffContext,
  HandoffOutcome,
  HandoffRequest,
  PermanentErrorReason,
  TransientErrorClass,
} from '@programrun/engine';
