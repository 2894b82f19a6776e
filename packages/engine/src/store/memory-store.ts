import { memoryAccountTables } from './memory-account-tables.js';
import { memoryHandoffJobTables } from './memory-handoff-job-tables.js';
import { memoryIdempotencyTables } from './memory-idempotency-tables.js';
import { memoryRunTables } from './memory-run-tables.js';
import { emptyMemoryState } from './memory-state.js';
import { memoryTimerTables } from './memory-timer-tables.js';
import { memoryWebhookTables } from './memory-webhook-tables.js';
import { transitionByOperations } from './transition-by-operations.js';
import { guardStoreTransaction } from './store-guard.js';
import { StoreError } from './store-error.js';
import type { StoreTransactionV1, StoreV1 } from './store-v1.js';
import { UndoLog } from './undo-log.js';

/**
 * The in-memory store: fast, for unit tests and demos. Transactions run one at a time
 * (so every `lock…` method holds by construction) and roll back through an undo log when
 * their work throws. Rows are kept by reference: callers must treat what they read as
 * immutable (the engine always writes new objects).
 *
 * @example
 * ```ts
 * const engine = createEngine({ store: createMemoryStore(), scenarios });
 * ```
 */
export function createMemoryStore(): StoreV1 {
  const state = emptyMemoryState();
  // One transaction at a time: the tables write through the running transaction's log.
  let undoLog = new UndoLog();
  const undo = () => undoLog;
  const unguarded = {
    ...memoryRunTables(state, undo),
    ...memoryTimerTables(state, undo),
    ...memoryAccountTables(state, undo),
    ...memoryIdempotencyTables(state, undo),
    ...memoryWebhookTables(state.webhooks, undo),
    ...memoryHandoffJobTables(state.handoffJobs, undo),
  };
  // Guarded, so it refuses exactly the values the SQL stores cannot keep. A transition's
  // read and write are the operations one after another, its write guarded once as a
  // whole (as the SQL stores guard theirs) rather than part by part.
  const tables: StoreTransactionV1 = {
    ...guardStoreTransaction(unguarded),
    ...guardStoreTransaction(transitionByOperations(unguarded)),
  };
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  return {
    specificationVersion: 'v1',
    name: 'memory',
    transaction<T>(work: (tx: StoreTransactionV1) => Promise<T>): Promise<T> {
      if (closed) return Promise.reject(new StoreError('store_unavailable', 'the store is closed'));
      const run = queue.then(async () => {
        undoLog = new UndoLog();
        try {
          return await work(tables);
        } catch (error) {
          undoLog.rollback();
          throw error;
        }
      });
      queue = run.catch(() => undefined);
      return run;
    },
    close() {
      closed = true;
      return queue.then(() => undefined);
    },
  };
}
