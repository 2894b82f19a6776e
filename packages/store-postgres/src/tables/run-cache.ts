import type { RunForTransition, Scope, StoredRun, TimerRow } from '@programrun/engine';

/** A run this store wrote and saw committed, with its pending timers when it knows them. */
export interface CachedRun {
  readonly run: StoredRun;
  /** The run's pending timers after that write, in due order; undefined when not known. */
  readonly pendingTimers?: readonly TimerRow[] | undefined;
}

/**
 * The runs this store last wrote and saw committed, by id, the most recent `capacity` of
 * them. A run row never changes without its version changing, so a transition's read that
 * finds the stored version equal to the cached one needs none of the row's documents
 * (snapshot and record) from the server: they are the cached run's. A migration that
 * rewrote run documents in place would have to bump their versions too.
 *
 * A live run whose pending timers are known is even taken as it is, with no read at all
 * (`transition`): the write's compare-and-swap on the version proves it current, and a
 * run another host moved since fails that swap and is read again (see
 * `RunForTransition.cached`). Test runs are always read: their account's test clock is
 * another host's to move.
 */
export interface RunCache {
  /** The cached run `id` of `scope`, if any. */
  get(scope: Scope, id: string): StoredRun | undefined;
  /** The cached live run `id` of `scope` with its pending timers, as a transition reads it. */
  transition(scope: Scope, id: string): RunForTransition | undefined;
  /** Remembers runs written by a transaction that committed. */
  remember(runs: readonly CachedRun[]): void;
  /** Forgets runs that may have changed in ways this store did not see committed. */
  forget(ids: Iterable<string>): void;
}

/** A {@link RunCache} of at most `capacity` runs, least recently used first out. */
export function createRunCache(capacity = 1_000): RunCache {
  const runs = new Map<string, CachedRun>();
  const lookup = (scope: Scope, id: string): CachedRun | undefined => {
    const cached = runs.get(id);
    if (!cached) return undefined;
    const { run } = cached;
    if (run.account !== scope.account || run.environment !== scope.environment) return undefined;
    runs.delete(id);
    runs.set(id, cached);
    return cached;
  };
  return {
    get: (scope, id) => lookup(scope, id)?.run,
    transition(scope, id) {
      if (scope.environment !== 'live') return undefined;
      const cached = lookup(scope, id);
      if (!cached?.pendingTimers) return undefined;
      return {
        run: cached.run,
        pendingTimers: [...cached.pendingTimers],
        testClock: undefined,
        cached: true,
      };
    },
    remember(written) {
      for (const cached of written) {
        runs.delete(cached.run.id);
        runs.set(cached.run.id, cached);
        if (runs.size > capacity) runs.delete(runs.keys().next().value!);
      }
    },
    forget(ids) {
      for (const id of ids) runs.delete(id);
    },
  };
}
