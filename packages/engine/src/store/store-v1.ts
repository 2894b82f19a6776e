import type { AccountOperations } from './account-spec.js';
import type { HandoffJobOperations } from './handoff-job-spec.js';
export type {
  HandoffJobSettle,
  RunForTransition,
  TransitionWrite,
  TransitionWritten,
} from './transition-spec.js';
import type { IdempotencyOperations } from './idempotency-spec.js';
import type { RunOperations } from './run-spec.js';
import type { TimerOperations } from './timer-spec.js';
import type { TransitionOperations } from './transition-spec.js';
import type { WebhookOperations } from './webhook-spec.js';

export type { Scope, Page, StoredRun, RunQuery, VersionStatusCount } from './run-spec.js';
export type { TimerRow, TimerKind, TimerQuery, TimerClaim, TestClockRow } from './timer-spec.js';
export type { ApiKeyRow, IssuerActivationRow, AccessRequestRow } from './account-spec.js';
export type { IdempotencyRecord } from './idempotency-spec.js';
export type {
  HandoffJobClaim,
  HandoffJobError,
  HandoffJobQuery,
  HandoffJobRow,
  HandoffJobStatus,
  HandoffPartyLoad,
} from './handoff-job-spec.js';

/**
 * What a unit of work promises its store, so the store may spend fewer round trips on it.
 * A store may ignore every option: the transaction is then an ordinary one.
 *
 * @example
 * ```ts
 * await store.transaction((tx) => tx.writeTransition(write), { singleWrite: true });
 * ```
 */
export interface StoreTransactionOptions {
  /**
   * The work writes once at most, with one `writeTransition` or one `claimHandoffJobs`
   * (reads before and after it are allowed, nothing written after it). A store may then run
   * the reads outside a transaction (at READ COMMITTED each statement sees what it would
   * see inside one) and commit that write by itself as it completes: on SQL stores a
   * transition is then two round trips (read, write) instead of BEGIN, read, write, COMMIT,
   * and a claim one. A write that fails
   * (`version_conflict`, `duplicate_key`) writes nothing, as in a transaction; but when
   * the work throws after its write committed, the write stays (as when a COMMIT's answer
   * is lost). A write after the committed one is refused with an error.
   * @default false
   */
  readonly singleWrite?: boolean;
  /**
   * With `singleWrite`: the one `writeTransition` may be committed in one statement (one
   * transaction) with the writes of other units of work arriving at the same time, on other
   * runs; each stays whole by itself (all of it or none, and a conflict fails that write
   * alone, to be retried alone). A store batches what arrives while an earlier batch is
   * being written, and, with `maxWaitMs`, holds a write arriving at an idle store up to
   * that long for others to join it. Stores without batching ignore it.
   * @default undefined (the write is sent by itself)
   */
  readonly batch?: { readonly maxWaitMs: number };
}

/**
 * Operations inside one store transaction, by table group. Everything a transition writes
 * (run, lifecycle records, outbox events and deliveries, timers) commits together or not
 * at all. Transactions run at READ COMMITTED or stronger. Only the `lock…` methods wait for
 * other transactions (they say what they hold); claims skip rows others are claiming;
 * `updateRun` and `updateWebhookDelivery` compare-and-swap instead of locking.
 */
export interface StoreTransactionV1
  extends
    RunOperations,
    TimerOperations,
    AccountOperations,
    WebhookOperations,
    IdempotencyOperations,
    HandoffJobOperations,
    TransitionOperations {}

/**
 * Store spec v1: the one interface every store implements (memory here; PGlite and
 * PostgreSQL in `@programrun/store-postgres`). Every store must pass the contract suite
 * in `@programrun/engine/store-contract`, which includes refusing alike, with an
 * `unstorable_value` StoreError, what no store can keep: text with U+0000 or an unpaired
 * surrogate, numbers that are not finite, and numbers outside JSON documents (versions,
 * sequences, attempts, limits) beyond a SQL `integer` (`guardStoreTransaction` does it).
 *
 * @example
 * ```ts
 * const store: StoreV1 = createMemoryStore();
 * await store.transaction(async (tx) => tx.getRun({ account: 'acct_demo', environment: 'test' }, 'prun_123'));
 * ```
 */
export interface StoreV1 {
  readonly specificationVersion: 'v1';
  /** Short name for logs, e.g. `memory`. */
  readonly name: string;
  /**
   * Runs `work` in one transaction; it commits when `work` resolves and rolls back when it
   * throws. See {@link StoreTransactionOptions} for what `options` allow a store to do.
   */
  transaction<T>(
    work: (tx: StoreTransactionV1) => Promise<T>,
    options?: StoreTransactionOptions,
  ): Promise<T>;
  close(): Promise<void>;
  /**
   * Optional: one cheap round trip that proves the store answers, with the schema version
   * it finds and the one this code expects (what `engine.readiness()` reports). A store
   * without it is probed with an empty transaction and has no migrations to be behind on.
   */
  health?(): Promise<StoreHealth>;
}

/**
 * What a store's `health()` answers: the schema version its database is at and the one
 * this code reads and writes (equal when migrations are current).
 *
 * @example
 * ```ts
 * const health = await store.health?.();
 * if (health && health.schemaVersion < health.expectedVersion) console.warn('migrations pending');
 * ```
 */
export interface StoreHealth {
  readonly schemaVersion: number;
  readonly expectedVersion: number;
}
