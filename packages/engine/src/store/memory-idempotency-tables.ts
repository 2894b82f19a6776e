import type { IdempotencyOperations, IdempotencyRecord } from './idempotency-spec.js';
import { scopeKey, type MemoryState } from './memory-state.js';
import type { Scope } from './run-spec.js';
import type { UndoLog } from './undo-log.js';

/**
 * Idempotency records of the memory store. Its transactions run one at a time, so
 * `lockIdempotencyRecord` holds the key by construction.
 */
export function memoryIdempotencyTables(
  state: MemoryState,
  undo: () => UndoLog,
): IdempotencyOperations {
  return {
    lockIdempotencyRecord(scope: Scope, key: string): Promise<IdempotencyRecord | undefined> {
      return Promise.resolve(state.idempotency.get(scopeKey(scope, key)));
    },

    putIdempotencyRecord(record: IdempotencyRecord): Promise<void> {
      undo().set(state.idempotency, scopeKey(record, record.key), record);
      return Promise.resolve();
    },

    deleteIdempotencyRecord(scope: Scope, key: string): Promise<void> {
      undo().delete(state.idempotency, scopeKey(scope, key));
      return Promise.resolve();
    },

    purgeIdempotencyRecords(now: string): Promise<number> {
      let purged = 0;
      for (const [key, record] of [...state.idempotency]) {
        if (record.expires_at <= now) {
          undo().delete(state.idempotency, key);
          purged += 1;
        }
      }
      return Promise.resolve(purged);
    },
  };
}
