import { hasRecordFilters, runMatchesQuery } from '../store/run-query-match.js';
import type { Page, RunQuery, Scope, StoredRun, StoreTransactionV1 } from '../store/store-v1.js';

/**
 * A page of runs that pass every filter of `query`, whatever the store did with the
 * filters it may ignore (`stage`, `awaiting`, `q`): each run the store lists is re-checked,
 * and the store is read on from the last run it listed until the page and one run more
 * are found, or nothing is left. A store that applies the filters answers in one read.
 * The cursor, like the stores' own, must itself pass the filters, or the page is empty.
 */
export async function listMatchingRuns(
  tx: StoreTransactionV1,
  scope: Scope,
  query: RunQuery,
): Promise<Page<StoredRun>> {
  if (query.starting_after !== undefined && hasRecordFilters(query)) {
    const cursor = await tx.getRun(scope, query.starting_after);
    if (!cursor || !runMatchesQuery(cursor, query)) return { data: [], has_more: false };
  }
  const found: StoredRun[] = [];
  let after = query.starting_after;
  for (;;) {
    // One run beyond the page tells whether there are more without a second read.
    const page = await tx.listRuns(scope, {
      ...query,
      ...(after === undefined ? {} : { starting_after: after }),
      limit: query.limit + 1,
    });
    for (const run of page.data) {
      if (!runMatchesQuery(run, query)) continue;
      if (found.length === query.limit) return { data: found, has_more: true };
      found.push(run);
    }
    const last = page.data.at(-1);
    if (!page.has_more || last === undefined) return { data: found, has_more: false };
    after = last.id;
  }
}
