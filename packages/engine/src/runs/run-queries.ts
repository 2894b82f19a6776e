import type { EngineContext } from '../engine-context.js';
import { withExportability } from '../evidence/access-requests.js';
import { loadRun } from '../kernel/load-run.js';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { Page, RunQuery, Scope } from '../store/store-v1.js';
import type { RunRecord } from './run-record.js';

const MAX_LIST_LIMIT = 100;

/**
 * A run's record, with `evidence.exportable` current.
 */
export function getRun(context: EngineContext, scope: Scope, id: string): Promise<RunRecord> {
  return context.transactions.run(async ({ tx }) =>
    withExportability(tx, scope, (await loadRun(tx, scope, id)).record),
  );
}

/**
 * A page of the scope's runs, newest first; `limit` is clamped to 1–100 (default 10).
 */
export function listRuns(
  context: EngineContext,
  scope: Scope,
  query: Partial<RunQuery> = {},
): Promise<Page<RunRecord>> {
  const limit = Math.min(Math.max(query.limit ?? 10, 1), MAX_LIST_LIMIT);
  return context.transactions.run(async ({ tx }) => {
    const page = await tx.listRuns(scope, { ...query, limit });
    const data = await Promise.all(
      page.data.map((run) => withExportability(tx, scope, run.record)),
    );
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
