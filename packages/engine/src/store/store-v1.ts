import type { PersistedSnapshot, RunEnvironment } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { RunRecord, RunStatus } from '../runs/run-record.js';
import type {
  WebhookAttemptRow,
  WebhookClaim,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEventQuery,
  WebhookEventRow,
} from './webhook-rows.js';

/** Every object belongs to one account in one environment; stores never mix them. */
export interface Scope {
  readonly account: string;
  readonly environment: RunEnvironment;
}

/** A run as stored: the public record kept current, plus what the engine needs to resume. */
export interface StoredRun {
  readonly id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  /** Incremented by every committed transition; updates compare-and-swap on it. */
  readonly version: number;
  readonly scenario_id: string;
  readonly status: RunStatus;
  /** ISO time, for ordering and filtering lists. */
  readonly created_at: string;
  /** The `Idempotency-Key` that created the run, unique per scope. */
  readonly idempotency_key: string | null;
  /** The machine's state; null while the run waits `suspended` before its machine started. */
  readonly snapshot: PersistedSnapshot | null;
  /** Sequence of the last lifecycle record. */
  readonly last_sequence: number;
  /** The HTTP representation, recomputed on every transition. */
  readonly record: RunRecord;
}

/** What fires a timer: a deadline or wait, or a simulated partner's answer. */
export type TimerKind = 'expiry' | 'timeout' | 'wait' | 'partner_response';

/** A durable timer row: the engine owns timers because XState does not restore `after`. */
export interface TimerRow {
  readonly id: string;
  readonly run_id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly kind: TimerKind;
  readonly step: string;
  readonly attempt: number;
  /** ISO time on the environment's clock. */
  readonly due_at: string;
  /** Extra data for whoever fires the timer (empty for the built-in kinds). */
  readonly payload: JsonObject;
  readonly status: 'pending' | 'fired' | 'cancelled';
}

/** A stored response for the `Idempotency-Key` protocol. */
export interface IdempotencyRecord {
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly key: string;
  /** Digest over method, path and canonical body. */
  readonly fingerprint: string;
  readonly state: 'in_flight' | 'completed';
  readonly response: {
    readonly status: number;
    readonly body: string;
    readonly content_type: string;
    /** `Request-Id` of the request that produced it (replays send it as `Original-Request-Id`). */
    readonly request_id: string;
  } | null;
  /** ISO wall-clock time; an in-flight claim older than its lease may be retaken. */
  readonly locked_until: string;
  readonly created_at: string;
  readonly expires_at: string;
}

/** A request-access lead, linked to a client session (it unlocks evidence export). */
export interface AccessRequestRow {
  readonly id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly session_id: string;
  readonly name: string;
  readonly email: string;
  readonly company: string;
  readonly use_case: string;
  readonly created_at: string;
}

/** An API key as stored: never the secret, only its digest and what identifies it to people. */
export interface ApiKeyRow {
  /** `key_…`: names the key in lists, logs and rate limits. */
  readonly id: string;
  readonly account: string;
  /** From the key's prefix: `pr_test_…` keys are `test`, `pr_live_…` keys `live`. */
  readonly environment: RunEnvironment;
  /** `sha256:<hex>` of the whole key; the lookup index (unique). */
  readonly secret_hash: string;
  /** Last four characters of the key, to tell keys apart. */
  readonly last4: string;
  readonly description: string | null;
  readonly created_at: string;
  /** Set once, when the key is revoked; a revoked key never authenticates again. */
  readonly revoked_at: string | null;
}

/** How far an account's test clock is ahead of the test environment's base clock. */
export interface TestClockRow {
  readonly account: string;
  /** Milliseconds ahead of the base clock; only grows. */
  readonly offset_ms: number;
  readonly updated_at: string;
}

/**
 * An account's issuer activation of a restricted scenario (by scenario name, every
 * version): until it is active, live runs of that scenario wait `suspended` in intake.
 */
export interface IssuerActivationRow {
  readonly account: string;
  /** Scenario name without version, e.g. `reserve-usd-cycle`. */
  readonly scenario: string;
  readonly status: 'active' | 'revoked';
  /** The issuer's reference for the activation (agreement, onboarding case). */
  readonly reference: string;
  readonly activated_at: string;
  readonly revoked_at: string | null;
}

/** Selects pending timers: one environment, optionally one account. */
export interface TimerQuery {
  readonly environment: RunEnvironment;
  /** Only this account's timers (test clocks are per account). */
  readonly account?: string;
}

/**
 * What a timer scheduler asks for: due pending timers, leased so that every other host
 * skips them until the lease ends (a crashed host's timers are taken over after it).
 */
export interface TimerClaim extends TimerQuery {
  /** Timers due at or before this (the environment's clock). */
  readonly due_at: string;
  /** Now on the wall clock: leases that ended before it are free. */
  readonly lease_now: string;
  /** Wall-clock ISO time until which the claimed timers are held. */
  readonly lease_until: string;
  readonly limit: number;
}

/** Filters of a run list; results are newest first. */
export interface RunQuery {
  readonly scenario_id?: string;
  readonly status?: RunStatus;
  /** ISO lower bound (inclusive) of `created_at`. */
  readonly created_gte?: string;
  /** ISO upper bound (exclusive) of `created_at`. */
  readonly created_lt?: string;
  /** Return runs after this run id in list order. */
  readonly starting_after?: string;
  readonly limit: number;
}

/** One page of a list. */
export interface Page<T> {
  readonly data: readonly T[];
  readonly has_more: boolean;
}

/** Thrown by `updateRun` when the stored version is not the expected one. */
export interface VersionConflict {
  readonly code: 'version_conflict';
}

/**
 * Operations inside one store transaction. Everything a transition writes (run,
 * lifecycle records, timers) commits together or not at all.
 */
export interface StoreTransactionV1 {
  getRun(scope: Scope, id: string): Promise<StoredRun | undefined>;
  findRunByIdempotencyKey(scope: Scope, key: string): Promise<StoredRun | undefined>;
  /** Inserts a new run; throws a `duplicate_key` StoreError if the id or idempotency key exists. */
  insertRun(run: StoredRun): Promise<void>;
  /** Replaces a run if its stored version is `expectedVersion`; else throws `version_conflict`. */
  updateRun(run: StoredRun, expectedVersion: number): Promise<void>;
  listRuns(scope: Scope, query: RunQuery): Promise<Page<StoredRun>>;

  /** Appends records; throws `duplicate_key` if a (run, sequence) exists. */
  appendRecords(scope: Scope, records: readonly LifecycleRecord[]): Promise<void>;
  /** Records of one run in sequence order, after `afterSequence`. */
  listRecords(
    scope: Scope,
    runId: string,
    options?: { afterSequence?: number; limit?: number },
  ): Promise<LifecycleRecord[]>;

  scheduleTimers(timers: readonly TimerRow[]): Promise<void>;
  pendingTimers(runId: string): Promise<TimerRow[]>;
  /** Sets the status of timers by id. */
  settleTimers(ids: readonly string[], status: 'fired' | 'cancelled'): Promise<void>;
  /** Pending timers matching `query` due at or before `now`, earliest first (ties by id). */
  dueTimers(query: TimerQuery, now: string, limit: number): Promise<TimerRow[]>;
  /**
   * Leases due pending timers matching `claim` whose lease is free, earliest due first
   * (ties by id), and returns them. Two hosts claiming at once never get the same timer.
   */
  claimTimers(claim: TimerClaim): Promise<TimerRow[]>;
  /** Earliest pending timer matching `query`, if any. */
  nextTimer(query: TimerQuery): Promise<TimerRow | undefined>;

  /** The account's test clock; undefined while it has never moved. */
  getTestClock(account: string): Promise<TestClockRow | undefined>;
  /** Inserts or replaces an account's test clock. */
  putTestClock(clock: TestClockRow): Promise<void>;
  /** Every test clock that has moved, by account. */
  listTestClocks(): Promise<TestClockRow[]>;

  /** Inserts a key; throws `duplicate_key` when the id or the secret hash exists. */
  insertApiKey(key: ApiKeyRow): Promise<void>;
  /** The key with this secret hash (revoked or not), in any account. */
  findApiKeyByHash(secretHash: string): Promise<ApiKeyRow | undefined>;
  getApiKey(account: string, id: string): Promise<ApiKeyRow | undefined>;
  /** Keys of an account, oldest first. */
  listApiKeys(account: string): Promise<ApiKeyRow[]>;
  /** Replaces a key that exists (revocation). */
  updateApiKey(key: ApiKeyRow): Promise<void>;

  getIssuerActivation(account: string, scenario: string): Promise<IssuerActivationRow | undefined>;
  /** Inserts or replaces the activation of (account, scenario). */
  putIssuerActivation(activation: IssuerActivationRow): Promise<void>;
  /** Activations of an account, by scenario name. */
  listIssuerActivations(account: string): Promise<IssuerActivationRow[]>;

  /** Inserts a lead; throws `duplicate_key` when the scope already has one for the session. */
  insertAccessRequest(request: AccessRequestRow): Promise<void>;
  getAccessRequestBySession(scope: Scope, sessionId: string): Promise<AccessRequestRow | undefined>;

  /** Inserts an endpoint; throws `duplicate_key` when the id exists. */
  insertWebhookEndpoint(endpoint: WebhookEndpointRow): Promise<void>;
  getWebhookEndpoint(scope: Scope, id: string): Promise<WebhookEndpointRow | undefined>;
  /** Endpoints of a scope, oldest first. */
  listWebhookEndpoints(scope: Scope): Promise<WebhookEndpointRow[]>;
  /** Replaces an endpoint that exists; throws `not_found` otherwise. */
  updateWebhookEndpoint(endpoint: WebhookEndpointRow): Promise<void>;
  /** Removes an endpoint; its deliveries stay (and are cancelled when next claimed). */
  deleteWebhookEndpoint(scope: Scope, id: string): Promise<void>;

  /** Appends events to the outbox; throws `duplicate_key` when an id exists. */
  insertWebhookEvents(events: readonly WebhookEventRow[]): Promise<void>;
  getWebhookEvent(scope: Scope, id: string): Promise<WebhookEventRow | undefined>;
  /** Events of a scope, newest first (one run's events in descending sequence). */
  listWebhookEvents(scope: Scope, query: WebhookEventQuery): Promise<Page<WebhookEventRow>>;

  /** Inserts deliveries; throws `duplicate_key` when an id exists. */
  insertWebhookDeliveries(deliveries: readonly WebhookDeliveryRow[]): Promise<void>;
  getWebhookDelivery(scope: Scope, id: string): Promise<WebhookDeliveryRow | undefined>;
  /** Deliveries of one event, by endpoint id. */
  listWebhookDeliveries(scope: Scope, eventId: string): Promise<WebhookDeliveryRow[]>;
  /**
   * Replaces a delivery if its stored `attempts` is `expectedAttempts` (so two
   * dispatchers never both record the same attempt); else throws `version_conflict`.
   */
  updateWebhookDelivery(delivery: WebhookDeliveryRow, expectedAttempts: number): Promise<void>;
  /**
   * Leases due pending deliveries of one environment whose lease is free, earliest due
   * first (ties by id), setting `lease_until`; returns them as leased.
   */
  claimWebhookDeliveries(claim: WebhookClaim): Promise<WebhookDeliveryRow[]>;
  /** Earliest `next_attempt_at` of the environment's pending deliveries, if any. */
  nextWebhookAttempt(environment: RunEnvironment): Promise<string | undefined>;
  /** Keeps an attempt; throws `duplicate_key` when (delivery, attempt) exists. */
  appendWebhookAttempt(attempt: WebhookAttemptRow): Promise<void>;
  /** Attempts of a delivery, in order. */
  listWebhookAttempts(deliveryId: string): Promise<WebhookAttemptRow[]>;

  getIdempotencyRecord(scope: Scope, key: string): Promise<IdempotencyRecord | undefined>;
  /** Inserts or replaces the record for (scope, key). */
  putIdempotencyRecord(record: IdempotencyRecord): Promise<void>;
  deleteIdempotencyRecord(scope: Scope, key: string): Promise<void>;
  /** Deletes records that expired before `now`; returns how many. */
  purgeIdempotencyRecords(now: string): Promise<number>;
}

/**
 * Store spec v1: the one interface every store implements (memory here; PGlite and
 * PostgreSQL in `@programrun/store-postgres`). Every store must pass the contract suite
 * in `@programrun/engine/store-contract`.
 *
 * @example
 * ```ts
 * const store: StoreV1 = createMemoryStore();
 * await store.transaction(async (tx) => tx.getRun(scope, 'prun_123'));
 * ```
 */
export interface StoreV1 {
  readonly specificationVersion: 'v1';
  /** Short name for logs, e.g. `memory`. */
  readonly name: string;
  /** Runs `work` in one transaction; it commits when `work` resolves and rolls back when it throws. */
  transaction<T>(work: (tx: StoreTransactionV1) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
