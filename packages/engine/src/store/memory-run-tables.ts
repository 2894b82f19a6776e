import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import { inScope, scopeKey, type MemoryState } from './memory-state.js';
import { runMatchesQuery } from './run-query-match.js';
import type {
  Page,
  RunOperations,
  RunQuery,
  Scope,
  StoredRun,
  VersionStatusCount,
} from './run-spec.js';
import { StoreError } from './store-error.js';
import type { UndoLog } from './undo-log.js';

/** Newest first, ties by id descending (the list order of runs). */
const newestFirst = (a: StoredRun, b: StoredRun): number =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

/** Runs and lifecycle records of the memory store. */
export function memoryRunTables(state: MemoryState, undo: () => UndoLog): RunOperations {
  return {
    getRun(scope: Scope, id: string): Promise<StoredRun | undefined> {
      const run = state.runs.get(id);
      return Promise.resolve(run && inScope(scope, run) ? run : undefined);
    },

    findRunByIdempotencyKey(scope: Scope, key: string): Promise<StoredRun | undefined> {
      const id = state.runsByKey.get(scopeKey(scope, key));
      return Promise.resolve(id === undefined ? undefined : state.runs.get(id));
    },

    insertRun(run: StoredRun): Promise<void> {
      if (state.runs.has(run.id)) throw new StoreError('duplicate_key', `run ${run.id} exists`);
      if (run.idempotency_key !== null) {
        const key = scopeKey(run, run.idempotency_key);
        if (state.runsByKey.has(key))
          throw new StoreError('duplicate_key', 'idempotency key already used');
        undo().set(state.runsByKey, key, run.id);
      }
      undo().set(state.runs, run.id, run);
      return Promise.resolve();
    },

    updateRun(run: StoredRun, expectedVersion: number): Promise<void> {
      const current = state.runs.get(run.id);
      if (!current || current.version !== expectedVersion) {
        throw new StoreError(
          'version_conflict',
          `run ${run.id} is not at version ${expectedVersion}`,
        );
      }
      undo().set(state.runs, run.id, run);
      return Promise.resolve();
    },

    listRuns(scope: Scope, query: RunQuery): Promise<Page<StoredRun>> {
      const ordered = [...state.runs.values()]
        .filter((run) => inScope(scope, run) && runMatchesQuery(run, query))
        .sort(newestFirst);
      // A cursor that is not in this list (unknown id, another scope) yields an empty page.
      const start =
        query.starting_after === undefined
          ? 0
          : ordered.findIndex((run) => run.id === query.starting_after) + 1 || ordered.length;
      const data = ordered.slice(start, start + query.limit);
      return Promise.resolve({ data, has_more: start + query.limit < ordered.length });
    },

    countRunsByVersion(scope: Scope, name: string): Promise<VersionStatusCount[]> {
      const counts = new Map<string, VersionStatusCount>();
      for (const run of state.runs.values()) {
        if (!inScope(scope, run) || !run.scenario_id.startsWith(`${name}@`)) continue;
        const key = `${run.scenario_id} ${run.status}`;
        const count = counts.get(key)?.count ?? 0;
        counts.set(key, { scenario_id: run.scenario_id, status: run.status, count: count + 1 });
      }
      return Promise.resolve([...counts.values()]);
    },

    appendRecords(_scope: Scope, records: readonly LifecycleRecord[]): Promise<void> {
      for (const record of records) {
        const existing = state.records.get(record.run_id) ?? [];
        const last = existing.at(-1)?.sequence ?? 0;
        if (record.sequence <= last) {
          throw new StoreError(
            'duplicate_key',
            `record ${record.run_id}#${record.sequence} exists`,
          );
        }
        undo().set(state.records, record.run_id, [...existing, record]);
      }
      return Promise.resolve();
    },

    listRecords(
      scope: Scope,
      runId: string,
      options: { afterSequence?: number; limit?: number } = {},
    ): Promise<LifecycleRecord[]> {
      const run = state.runs.get(runId);
      if (!run || !inScope(scope, run)) return Promise.resolve([]);
      const after = options.afterSequence ?? 0;
      const records = (state.records.get(runId) ?? []).filter((record) => record.sequence > after);
      return Promise.resolve(records.slice(0, options.limit ?? records.length));
    },
  };
}
