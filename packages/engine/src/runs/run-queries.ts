import type { EngineContext } from '../engine-context.js';
import { loadRun } from '../kernel/load-run.js';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { Page, RunQuery, Scope } from '../store/store-v1.js';
import { listMatchingRuns } from './list-matching-runs.js';
import type { RunRecord } from './run-record.js';
import { readRunRecord } from './run-overlays.js';

const MAX_LIST_LIMIT = 100;

/**
 * A run's record, with `evidence.exportable` current and, read now, the awaited handoff's
 * job and the posture of parties whose breaker is open.
 */
export function getRun(context: EngineContext, scope: Scope, id: string): Promise<RunRecord> {
  return context.transactions.run(async ({ tx }) =>
    readRunRecord(context, tx, scope, await loadRun(tx, scope, id)),
  );
}

/**
 * A page of the scope's runs (read as `getRun` reads one), newest first; `limit` is clamped to 1–100 (default 10).
 * Every run passes every filter of the query, also on a store that ignores some of them.
 */
export function listRuns(
  context: EngineContext,
  scope: Scope,
  query: Partial<RunQuery> = {},
): Promise<Page<RunRecord>> {
  const limit = Math.min(Math.max(query.limit ?? 10, 1), MAX_LIST_LIMIT);
  return context.transactions.run(async ({ tx }) => {
    const page = await listMatchingRuns(tx, scope, { ...query, limit });
    const data = await Promise.all(page.data.map((run) => readRunRecord(context, tx, scope, run)));
    return { data, has_more: page.has_more };
  });
}

/**
 * A run's lifecycle records in sequence order (`run_not_found` for another scope's run).
 */
export function listEvents(
  context: EngineContext,
  scope: Scope,
  runId: string,
  options: { afterSequence?: number; limit?: number } = {},
): Promise<LifecycleRecord[]> {
  return context.transactions.run(async ({ tx }) => {
    await loadRun(tx, scope, runId);
    return tx.listRecords(scope, runId, options);
  });
}
