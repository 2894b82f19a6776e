import { trace } from '@opentelemetry/api';
import type {
  Scope,
  StoredRun,
  StoreTransactionV1,
  StoreV1,
  TimerRow,
  TransitionWrite,
} from '@programrun/engine';
import { guardStoreTransaction, StoreError } from '@programrun/engine';
import type { SqlDatabase, SqlExecutor } from './sql/sql-database.js';
import { countedTransaction } from './sql/statement-count.js';
import { sqlStoreHealth } from './store-health.js';
import { accountTables } from './tables/account-tables.js';
import { handoffJobTables } from './tables/handoff-job-tables.js';
import { idempotencyTables } from './tables/idempotency-tables.js';
import { runTables } from './tables/run-tables.js';
import { timerTables } from './tables/timer-tables.js';
import { createRunCache, type CachedRun } from './tables/run-cache.js';
import { createTransitionBatcher, sendWrites } from './tables/transition-batcher.js';
import type { WriteOutcome } from './tables/transition-write-statement.js';
import { transitionTables, type TransitionRuns } from './tables/transition-tables.js';
import { webhookTables } from './tables/webhook-tables.js';

/** A Store spec v1 over SQL, plus what a host needs to know about where it writes. */
export interface SqlStore extends StoreV1 {
  readonly name: 'postgres' | 'pglite';
  /** The PostgreSQL schema holding the tables (quoted). */
  readonly schema: string;
}

/** What one transaction read and wrote of runs, for the run cache once it ends. */
interface TransactionRunState {
  /** The pending timers read (or written) with each run. */
  readonly read: Map<string, readonly TimerRow[]>;
  /** Runs taken from the cache with no read. */
  readonly taken: Set<string>;
  /** Runs written, with their pending timers after the write when known. */
  readonly written: Map<string, CachedRun>;
  /** Runs whose timers were settled with no write of theirs. */
  readonly unsure: Set<string>;
}

const emptyTransactionRunState = (): TransactionRunState => ({
  read: new Map(),
  taken: new Set(),
  written: new Map(),
  unsure: new Set(),
});

/**
 * Every Store spec v1 operation, each one statement (or two) on the transaction's
 * connection, guarded like the memory store's: a value PostgreSQL cannot keep (NUL, an
 * unpaired surrogate, an integer beyond its column) is an `unstorable_value` StoreError
 * before any statement runs.
 */
function sqlTransaction(
  sql: SqlExecutor,
  schema: string,
  runs: TransitionRuns & { readonly timersSettled: (runIds: readonly string[]) => void },
): StoreTransactionV1 {
  return guardStoreTransaction({
    ...runTables(sql, schema),
    ...timerTables(sql, schema, runs.timersSettled),
    ...accountTables(sql, schema),
    ...idempotencyTables(sql, schema),
    ...webhookTables(sql, schema),
    ...handoffJobTables(sql, schema),
    ...transitionTables(sql, schema, runs),
  });
}

/**
 * The store over a migrated database: each `transaction` is one database transaction
 * (READ COMMITTED) whose operations are the table modules' statements.
 *
 * @example
 * ```ts
 * const store = createSqlStore(await createPGliteDatabase({ dataDir }), '"programrun"');
 * ```
 */
export function createSqlStore(database: SqlDatabase, schema: string): SqlStore {
  let closed = false;
  const health = sqlStoreHealth(database, schema);
  // Runs this store wrote in transactions that committed: a transition's read of one of
  // them leaves its documents on the server.
  const cache = createRunCache();
  // Group commit of the transition writes of single-write units of work that allow it.
  const batcher = createTransitionBatcher(schema);
  // The batch option of the unit of work running on each executor (none: sent alone).
  const batching = new WeakMap<SqlExecutor, { readonly maxWaitMs: number } | undefined>();
  const send = async (sql: SqlExecutor, write: TransitionWrite): Promise<WriteOutcome> => {
    const batch = batching.get(sql);
    const batched =
      batch === undefined
        ? undefined
        : sql.takeWrite?.((sendOn) => batcher.submit(write, sendOn, batch.maxWaitMs));
    if (batched) return batched;
    return (
      await sendWrites((text, params, options) => sql.query(text, params, options), schema, [write])
    )[0]!;
  };
  // What the running transaction of each executor read and wrote (an executor runs one
  // transaction at a time).
  const states = new WeakMap<SqlExecutor, TransactionRunState>();
  // The operations over an executor, built once per executor (once per pooled connection
  // on PostgreSQL) rather than once per transaction.
  const operations = new WeakMap<SqlExecutor, StoreTransactionV1>();
  const operationsOf = (sql: SqlExecutor): StoreTransactionV1 => {
    let found = operations.get(sql);
    if (!found) {
      const state = () => states.get(sql);
      const runs = {
        cache,
        take: (scope: Scope, id: string) =>
          state()?.written.has(id) ? undefined : cache.transition(scope, id),
        read(id: string, pendingTimers: readonly TimerRow[], cached: boolean) {
          state()?.read.set(id, pendingTimers);
          if (cached) state()?.taken.add(id);
        },
        pendingTimersRead: (id: string) => state()?.read.get(id),
        written(run: StoredRun, pendingTimers: readonly TimerRow[] | undefined) {
          state()?.written.set(run.id, { run, pendingTimers });
          if (pendingTimers) state()?.read.set(run.id, pendingTimers);
          else state()?.read.delete(run.id);
        },
        timersSettled: (runIds: readonly string[]) => {
          for (const id of runIds) state()?.unsure.add(id);
        },
        send,
      };
      operations.set(sql, (found = sqlTransaction(sql, schema, runs)));
    }
    return found;
  };
  return {
    specificationVersion: 'v1',
    name: database.kind,
    schema,
    async transaction(work, options = {}) {
      if (closed) throw new StoreError('store_unavailable', 'the store is closed');
      // A single-write unit of work reads before BEGIN and commits its one write by itself.
      const sqlOptions = { lazy: options.singleWrite === true };
      let runs: TransactionRunState = emptyTransactionRunState();
      const inner = (sql: SqlExecutor) => {
        states.set(sql, (runs = emptyTransactionRunState()));
        batching.set(sql, options.singleWrite ? options.batch : undefined);
        return work(operationsOf(sql));
      };
      // Under a recording span (the engine's transaction span), its statements are counted.
      const span = trace.getActiveSpan();
      let value: Awaited<ReturnType<typeof work>>;
      try {
        value = await (span?.isRecording()
          ? countedTransaction(database, span, inner, sqlOptions)
          : database.transaction(inner, sqlOptions));
      } catch (error) {
        // What it read from the cache or wrote may not be what is stored now.
        cache.forget([...runs.taken, ...runs.written.keys(), ...runs.unsure]);
        throw error;
      }
      cache.remember([...runs.written.values()]);
      cache.forget([...runs.taken].filter((id) => !runs.written.has(id)));
      cache.forget(runs.unsure);
      return value;
    },
    health() {
      if (closed) return Promise.reject(new StoreError('store_unavailable', 'the store is closed'));
      return health();
    },
    async close() {
      if (closed) return;
      closed = true;
      await database.close();
    },
  };
}
