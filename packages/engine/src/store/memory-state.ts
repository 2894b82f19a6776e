import type { RunEnvironment } from '@programrun/dsl';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { AccessRequestRow, ApiKeyRow, IssuerActivationRow } from './account-spec.js';
import type { IdempotencyRecord } from './idempotency-spec.js';
import { emptyHandoffJobState, type MemoryHandoffJobState } from './memory-handoff-job-tables.js';
import { emptyWebhookState, type MemoryWebhookState } from './memory-webhook-tables.js';
import type { Scope, StoredRun } from './run-spec.js';
import type { TestClockRow, TimerRow } from './timer-spec.js';

/** Every table of the memory store. */
export interface MemoryState {
  readonly runs: Map<string, StoredRun>;
  readonly runsByKey: Map<string, string>;
  readonly records: Map<string, LifecycleRecord[]>;
  readonly timers: Map<string, TimerRow>;
  /** Wall-clock lease end of claimed timers, by timer id. */
  readonly timerLeases: Map<string, string>;
  /** Pending timers by run id (the only ones queries look at). */
  readonly pendingByRun: Map<string, readonly TimerRow[]>;
  readonly idempotency: Map<string, IdempotencyRecord>;
  readonly accessRequests: Map<string, AccessRequestRow>;
  readonly testClocks: Map<string, TestClockRow>;
  readonly apiKeys: Map<string, ApiKeyRow>;
  readonly apiKeysByHash: Map<string, string>;
  readonly activations: Map<string, IssuerActivationRow>;
  readonly webhooks: MemoryWebhookState;
  readonly handoffJobs: MemoryHandoffJobState;
}

/** Empty tables. */
export function emptyMemoryState(): MemoryState {
  return {
    runs: new Map(),
    runsByKey: new Map(),
    records: new Map(),
    timers: new Map(),
    timerLeases: new Map(),
    pendingByRun: new Map(),
    idempotency: new Map(),
    accessRequests: new Map(),
    testClocks: new Map(),
    apiKeys: new Map(),
    apiKeysByHash: new Map(),
    activations: new Map(),
    webhooks: emptyWebhookState(),
    handoffJobs: emptyHandoffJobState(),
  };
}

/** The key of a row of a scope: account, environment and id. */
export const scopeKey = (scope: Scope, id: string): string =>
  `${scope.account}\u0000${scope.environment}\u0000${id}`;

/** Whether a row belongs to a scope. */
export const inScope = (
  scope: Scope,
  row: { readonly account: string; readonly environment: RunEnvironment },
): boolean => row.account === scope.account && row.environment === scope.environment;

/** Ascending order of two strings, for sorts. */
export const ascending = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
