import type { Scope, StoreTransactionV1, StoredRun, TransitionWrite } from '../store/store-v1.js';

/** A run a committed transaction wrote: its scope and id. */
export interface ChangedRun extends Scope {
  readonly id: string;
}

/**
 * Who is told of committed run changes: every transaction that inserted or updated a run
 * tells the run's watchers once it commits (never for an attempt that rolled back or was
 * retried), so a watcher reads the new state right after the commit.
 */
export interface RunChanges {
  /** Tells the watchers of each run, once per commit. */
  committed(runs: Iterable<ChangedRun>): void;
  /** Calls `listener` after every committed change of the run; returns the unsubscribe. */
  watch(scope: Scope, runId: string, listener: () => void): () => void;
  /**
   * Whether any run is watched. Transactions that begin while none is are not observed at
   * all, so an engine nobody watches pays nothing; a watcher that subscribes while such a
   * transaction is in flight learns of it from its own reads (the stream polls).
   */
  watching(): boolean;
}

const keyOf = (run: ChangedRun): string => `${run.environment}\u0000${run.account}\u0000${run.id}`;

/**
 * The run-change registry of an engine. Listeners are called synchronously after the
 * commit; one that throws is reported to `onError` and does not stop the others.
 */
export function createRunChanges(onError: (error: unknown) => void): RunChanges {
  const watchers = new Map<string, Set<() => void>>();
  return {
    committed(runs) {
      for (const run of runs) {
        for (const listener of watchers.get(keyOf(run)) ?? []) {
          try {
            listener();
          } catch (error) {
            onError(error);
          }
        }
      }
    },
    watching: () => watchers.size > 0,
    watch(scope, runId, listener) {
      const key = keyOf({ ...scope, id: runId });
      // Each subscription is its own entry, so subscribing one function twice needs two unsubscribes.
      const entry = () => listener();
      const listeners = watchers.get(key) ?? new Set();
      watchers.set(key, listeners.add(entry));
      return () => {
        listeners.delete(entry);
        if (listeners.size === 0 && watchers.get(key) === listeners) watchers.delete(key);
      };
    },
  };
}

/**
 * The transaction `tx` as the engine's work sees it, noting every run it inserts or
 * updates in `written` (alone or in a transition's write) (only once the store accepted the write). Everything else is `tx`'s
 * own, read through, so optional operations stay optional.
 */
export function observeRunWrites(
  tx: StoreTransactionV1,
  written: (run: StoredRun) => void,
): StoreTransactionV1 {
  return new Proxy(tx, {
    get(target, property) {
      if (property === 'insertRun')
        return async (run: StoredRun) => {
          await target.insertRun(run);
          written(run);
        };
      if (property === 'updateRun')
        return async (run: StoredRun, expectedVersion: number) => {
          await target.updateRun(run, expectedVersion);
          written(run);
        };
      if (property === 'writeTransition')
        return async (write: TransitionWrite) => {
          const result = await target.writeTransition(write);
          written(write.run);
          return result;
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}
