import type { Scope, StoredRun } from '@programrun/engine';

/**
 * The runs this store last wrote and saw committed, by id, the most recent `capacity` of
 * them. A run row never changes without its version changing, so a transition's read that
 * finds the stored version equal to the cached one needs none of the row's documents
 * (snapshot and record) from the server: they are the cached run's. A migration that
 * rewrote run documents in place would have to bump their versions too.
 */
export interface RunCache {
  /** The cached run `id` of `scope`, if any. */
  get(scope: Scope, id: string): StoredRun | undefined;
  /** Remembers runs written by a transaction that committed. */
  remember(runs: readonly StoredRun[]): void;
}

/** A {@link RunCache} of at most `capacity` runs, least recently used first out. */
export function createRunCache(capacity = 1_000): RunCache {
  const runs = new Map<string, StoredRun>();
  return {
    get(scope, id) {
      const run = runs.get(id);
      if (!run || run.account !== scope.account || run.environment !== scope.environment)
        return undefined;
      runs.delete(id);
      runs.set(id, run);
      return run;
    },
    remember(written) {
      for (const run of written) {
        runs.delete(run.id);
        runs.set(run.id, run);
        if (runs.size > capacity) runs.delete(runs.keys().next().value!);
      }
    },
  };
}
