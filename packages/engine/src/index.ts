export { createEngine } from './engine.js';
export type { Engine, UnitOfWork } from './engine-api.js';
export type { CreateRunRequest, CreateRunResult, PreparedCreation } from './runs/create-run.js';
export type { SignalResult } from './signals/apply-signal.js';
export type { IssuerActivations } from './activation/activations.js';
export type { Transaction, AfterCommitEffect } from './kernel/transaction.js';
export {
  generateApiKey,
  formatApiKey,
  parseApiKey,
  apiKeyChecksum,
  API_KEY_LENGTH,
} from './accounts/api-key-format.js';
export type { ParsedApiKey } from './accounts/api-key-format.js';
export {
  createApiKeys,
  DEFAULT_AUTHENTICATION_CACHE_MS,
  toApiKeyRecord,
} from './accounts/api-keys.js';
export type {
  ApiKeys,
  ApiKeyRecord,
  ApiKeyPrincipal,
  CreateApiKeyInput,
} from './accounts/api-keys.js';
export { createAccounts } from './accounts/accounts.js';
export type { Accounts, AccountsOptions } from './accounts/accounts.js';
export { constantTimeEqual } from './accounts/constant-time.js';
export { assertAccountId } from './accounts/account-id.js';
export {
  AUTH_SCOPES,
  DEFAULT_API_KEY_SCOPES,
  isAuthScope,
  normalizeAuthScopes,
  grantsScope,
  grantsPartyScope,
  scopeProblem,
} from './accounts/auth-scopes.js';
export type { AuthScope, BaseAuthScope, PartyAuthScope } from './accounts/auth-scopes.js';
export { isActor, ACTOR_RULE } from './accounts/actor.js';
export type {
  IssuerActivationRecord,
  ActivateIssuerInput,
  ActivationResult,
} from './activation/issuer-activations.js';
export type { EngineOptions } from './engine-options.js';
export type { HandoffOptions, PartnerConnection } from './handoffs/handoff-settings.js';
export type { HandoffWorkerOptions, HandoffWorkers } from './handoffs/handoff-workers.js';
export type { PartnerStatus } from './handoffs/partner-status.js';
export type { EnvironmentEvidenceKeys, EvidenceKeysOption } from './evidence/evidence-keys.js';
export { EngineError } from './errors.js';
export type { EngineErrorCode, FieldIssue } from './errors.js';
export { createScenarioCatalogue } from './catalogue/scenario-catalogue.js';
export type { ScenarioCatalogue } from './catalogue/scenario-catalogue.js';
export { describeScenario } from './catalogue/scenario-entry.js';
export type { CatalogueInvariant, ScenarioEntry } from './catalogue/scenario-entry.js';
export { systemClock, createVirtualClock, createOffsetClock } from './time/clock.js';
export type { Clock, AdjustableClock } from './time/clock.js';
export { randomIds, seededIds, randomBase62 } from './ids/random-ids.js';
export type { IdGenerator } from './ids/random-ids.js';
export { PermanentConnectorError, TransientConnectorError } from './connectors/connector-errors.js';
export type { PermanentErrorReason, TransientErrorClass } from './connectors/connector-errors.js';
export type {
  HandoffAnswer,
  HandoffConnector,
  HandoffContext,
  HandoffOutcome,
  HandoffRequest,
} from './connectors/handoff-contract.js';
export { createCircuitBreaker } from './flow-control/circuit-breaker.js';
export type {
  CallOutcome,
  CircuitBreaker,
  CircuitBreakerOptions,
  CircuitState,
  CircuitStatus,
  PartyPosture,
} from './flow-control/circuit-breaker.js';
export { createRateLimiter } from './flow-control/rate-limiter.js';
export type { PartyRateLimiter, PartyRateLimiterOptions } from './flow-control/rate-limiter.js';
export { createFairQueue } from './flow-control/fair-queue.js';
export type {
  FairQueue,
  FairQueueKeyStats,
  FairQueueOptions,
  FairQueueStats,
} from './flow-control/fair-queue.js';
export { createMemoryStore } from './store/memory-store.js';
export { runMatchesQuery } from './store/run-query-match.js';
export { StoreError, isStoreError } from './store/store-error.js';
export type { StoreErrorCode } from './store/store-error.js';
export { guardStoreTransaction } from './store/store-guard.js';
export { transitionByOperations } from './store/transition-by-operations.js';
export { assertOneScope, assertTransitionWrite } from './store/transition-spec.js';
export type { TransitionParts } from './store/transition-by-operations.js';
export {
  findUnstorable,
  firstUnstorableArgument,
  textProblem,
  SQL_INTEGER_MAX,
  UNSTORABLE_MESSAGES,
} from './store/storable-values.js';
export type { UnstorableProblem, UnstorableValue } from './store/storable-values.js';
export type {
  StoreV1,
  StoreTransactionOptions,
  StoreTransactionV1,
  Scope,
  StoredRun,
  TimerRow,
  TimerKind,
  IdempotencyRecord,
  ApiKeyRow,
  TestClockRow,
  IssuerActivationRow,
  AccessRequestRow,
  TimerClaim,
  TimerQuery,
  RunQuery,
  VersionStatusCount,
  Page,
  HandoffJobClaim,
  HandoffJobError,
  HandoffJobQuery,
  HandoffJobRow,
  HandoffJobStatus,
  HandoffPartyLoad,
  StoreHealth,
  RunForTransition,
  TransitionWrite,
  TransitionWritten,
} from './store/store-v1.js';
export type { LifecycleRecord } from './lifecycle/lifecycle-record.js';
export {
  LIFECYCLE_EVENT_TYPES,
  ACCOUNT_EVENT_TYPES,
  EVENT_TYPE_MEANINGS,
  EVENT_TYPES,
  recordTypeOf,
} from './lifecycle/event-types.js';
export type { EventType, LifecycleEventType } from './lifecycle/event-types.js';
export { eventId } from './lifecycle/build-records.js';
export { partnerIdempotencyKey } from './handoffs/partner-key.js';
export { deterministicId } from './ids/deterministic-id.js';
export { startScheduler } from './time/scheduler.js';
export type { Scheduler, SchedulerOptions, TimerSource } from './time/scheduler.js';
export type { StopOptions } from './stop-options.js';
export type { SandboxOptions } from './handoffs/sandbox.js';
export type { Signal, ApprovalSignal, HandoffSignal, CancelSignal } from './signals/signal.js';
export { FINAL_STATUSES, RUN_STATUSES } from './runs/run-record.js';
export type {
  RunRecord,
  RunUpgradeRecord,
  ScenarioVersion,
  RunStatus,
  AwaitingRecord,
  AwaitingDecision,
  AwaitingHandoffJob,
  StageRecord,
  PostureRecord,
  ActivationPosture,
  PosturePartyRecord,
  PostureRouteRecord,
  OutcomeRecord,
} from './runs/run-record.js';
export { webhookEventOf, webhookEventBody } from './webhooks/webhook-event.js';
export { lifecycleEventRows } from './outbox/lifecycle-events.js';
export type { WebhookEvent, WebhookEventRun } from './webhooks/webhook-event.js';
export {
  classifyAddress,
  isForbiddenAddress,
  isPermittedAddress,
  FORBIDDEN_ADDRESS,
  ForbiddenAddressError,
} from './webhooks/url-policy/address-policy.js';
export type { AddressClass } from './webhooks/url-policy/address-policy.js';
export {
  checkEndpointUrl,
  hostAddress,
  isLoopbackHostname,
  MAX_ENDPOINT_URL_LENGTH,
} from './webhooks/url-policy/endpoint-url.js';
export type {
  EndpointUrlCheck,
  EndpointUrlErrorCode,
  EndpointUrlOptions,
} from './webhooks/url-policy/endpoint-url.js';
export type { Webhooks } from './webhooks/webhooks.js';
export type {
  DeliveryQueue,
  DeliveryShares,
  DeliverySettled,
  AttemptOutcome,
  PreparedDelivery,
} from './webhooks/delivery-queue.js';
export type { WebhookOptions } from './webhooks/webhook-options.js';
export type {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
} from './webhooks/endpoint-input.js';
export type {
  WebhookEndpointRecord,
  WebhookEndpointWithSecret,
  EventRecord,
  WebhookDeliveryRecord,
  WebhookAttemptRecord,
} from './webhooks/webhook-records.js';
export { matchesEnabledEvents } from './webhooks/event-filter.js';
export {
  generateWebhookSecret,
  signWebhook,
  signatureHeader,
  verifyWebhookSignature,
} from './webhooks/webhook-secret.js';
export {
  parseWebhookSecretKey,
  webhookSecretKeyId,
  WebhookSecretKeyError,
} from './webhooks/secret-box.js';
export type { ResealResult } from './webhooks/reseal-secrets.js';
export { DEFAULT_RETRY_SCHEDULE } from './webhooks/retry-schedule.js';
export type { RetrySchedule } from './webhooks/retry-schedule.js';
export type {
  WebhookEndpointRow,
  WebhookSecretRow,
  WebhookEventRow,
  WebhookDeliveryRow,
  WebhookDeliveryStatus,
  WebhookAttemptRow,
  WebhookEventQuery,
  WebhookClaim,
  WebhookDisabledReason,
} from './store/webhook-spec.js';
export { formatTraceparent, parseTraceparent } from './telemetry/trace-context.js';
export { withCallerTrace, isCallerTrace } from './telemetry/caller-trace.js';
export { createTelemetry } from './telemetry/telemetry.js';
export type { Telemetry, SpanStart } from './telemetry/telemetry.js';
export type { TelemetryOptions } from './telemetry/telemetry-options.js';
export { ATTRIBUTES } from './telemetry/attributes.js';
export { METRIC_NAMES } from './telemetry/engine-metrics.js';
export type { BackgroundWorker, BackgroundWorkers } from './health/background-workers.js';
export type { Readiness, ReadinessChecks, ReadinessOptions } from './health/readiness.js';
export type { UpgradeRunsOptions, UpgradeRunsResult } from './upgrades/upgrade-runs.js';
export type { RunUpgrade } from './upgrades/upgrade-run.js';
export type { ScenarioVersionUsage } from './upgrades/version-usage.js';
