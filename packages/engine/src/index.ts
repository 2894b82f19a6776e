export { createEngine } from './engine.js';
export type { Engine, CreateRunRequest, CreateRunResult, SignalResult } from './engine.js';
export type { EngineOptions } from './engine-options.js';
export { EngineError } from './errors.js';
export type { EngineErrorCode, FieldIssue } from './errors.js';
export { createScenarioCatalogue } from './catalogue.js';
export type { ScenarioCatalogue } from './catalogue.js';
export { describeScenario } from './scenario-entry.js';
export type { ScenarioEntry } from './scenario-entry.js';
export { systemClock, createVirtualClock, createOffsetClock } from './clock.js';
export type { Clock, AdjustableClock } from './clock.js';
export { randomIds, seededIds, randomBase62 } from './ids.js';
export type { IdGenerator } from './ids.js';
export { createMemoryStore } from './store/memory-store.js';
export { StoreError, isStoreError } from './store/store-error.js';
export type { StoreErrorCode } from './store/store-error.js';
export type {
  StoreV1,
  StoreTransactionV1,
  Scope,
  StoredRun,
  TimerRow,
  TimerKind,
  IdempotencyRecord,
  RunQuery,
  Page,
} from './store/store-v1.js';
export type { LifecycleRecord } from './lifecycle/lifecycle-record.js';
export { LIFECYCLE_EVENT_TYPES, recordTypeOf } from './lifecycle/event-types.js';
export type { LifecycleEventType } from './lifecycle/event-types.js';
export { eventId } from './lifecycle/build-records.js';
export { partnerIdempotencyKey } from './timers/timer-plan.js';
export { startScheduler } from './timers/scheduler.js';
export type { Scheduler, SchedulerOptions } from './timers/scheduler.js';
export type { SandboxOptions } from './timers/sandbox-partners.js';
export type { Signal, ApprovalSignal, HandoffSignal, CancelSignal } from './signals/signal.js';
export { FINAL_STATUSES } from './runs/run-record.js';
export type {
  RunRecord,
  RunStatus,
  AwaitingRecord,
  StageRecord,
  PostureRecord,
  PosturePartyRecord,
  PostureRouteRecord,
  OutcomeRecord,
} from './runs/run-record.js';
