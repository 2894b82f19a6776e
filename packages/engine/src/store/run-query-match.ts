import type { RunQuery, StoredRun } from './run-spec.js';

/** The filters of a {@link RunQuery} that a store may ignore (they read the stored record). */
export type RecordFilters = Pick<RunQuery, 'stage' | 'awaiting' | 'q'>;

/** Whether a query has any of the filters a store may ignore. */
export function hasRecordFilters(query: RecordFilters): boolean {
  return query.stage !== undefined || query.awaiting !== undefined || query.q !== undefined;
}

/**
 * Whether a stored run passes every filter of a run list (`starting_after` and `limit`
 * aside): the one definition of the filters, which the memory store applies and the engine
 * re-checks on every store's answer.
 *
 * @example
 * ```ts
 * runMatchesQuery(run, { awaiting: 'approval' }); // true while run.record.awaiting?.kind is 'approval'
 * ```
 */
export function runMatchesQuery(run: StoredRun, query: Omit<RunQuery, 'limit'>): boolean {
  const { record } = run;
  return (
    (query.scenario_id === undefined || run.scenario_id === query.scenario_id) &&
    (query.status === undefined || run.status === query.status) &&
    (query.created_gte === undefined || run.created_at >= query.created_gte) &&
    (query.created_lt === undefined || run.created_at < query.created_lt) &&
    (query.stage === undefined || record.stage === query.stage) &&
    (query.awaiting === undefined || record.awaiting?.kind === query.awaiting) &&
    (query.q === undefined ||
      run.id === query.q ||
      run.idempotency_key === query.q ||
      record.session_id === query.q ||
      record.source_path === query.q)
  );
}
