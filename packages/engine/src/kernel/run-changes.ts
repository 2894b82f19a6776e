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
   * all, so an engine nobody watches pays nothing: such a transaction takes a
   * {@link RunChanges.mark} when it begins and calls {@link RunChanges.committedSince} once
   * it committed, which tells every watcher that subscribed meanwhile (its runs unknown).
   */
  watching(): boolean;
  /** How many subscriptions were ever made: what an unobserved transaction notes first. */
  mark(): number;
  /**
   * Tells the watchers that subscribed after `mark` was taken, whatever their runs: an
   * unobserved transaction that committed may have changed them after their first read.
   */
  committedSince(mark: number): void;
}

const keyOf = (run: ChangedRun): string => `${run.environment}\u0000${run.account}\u0000${run.id}`;

/**
 * The run-change registry of an engine. Listeners are called synchronously after the
 * commit; one that throws is reported to `onError` and does not stop the others.
 */
export function createRunChanges(onError: (error: unknown) => void): RunChanges {
  /** A subscription: its listener, and its place in the order of subscriptions. */
  interface Entry {
    readonly order: number;
    readonly listener: () => void;
  }
  const watchers = new Map<string, Set<Entry>>();
  let subscriptions = 0;
  const tell = (entry: Entry) => {
    try {
      entry.listener();
    } catch (error) {
      onError(error);
    }
  };
  return {
    committed(runs) {
      for (const run of runs) for (const entry of watchers.get(keyOf(run)) ?? []) tell(entry);
    },
    watching: () => watchers.size > 0,
    mark: () => subscriptions,
    committedSince(mark) {
      if (subscriptions === mark) return;
      for (const listeners of [...watchers.values()])
        for (const entry of [...listeners]) if (entry.order > mark) tell(entry);
    },
    watch(scope, runId, listener) {
      const key = keyOf({ ...scope, id: runId });
      // Each subscription is its own entry, so subscribing one function twice needs two unsubscribes.
      subscriptions += 1;
      const entry: Entry = { order: subscriptions, listener: () => listener() };
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
