import type { RunQuery, Scope } from '@programrun/engine';

/** A statement and its parameters. */
export interface Statement {
  readonly text: string;
  readonly params: unknown[];
}

/** The columns the filters read: the cursor's row carries them all. */
const FILTERED_COLUMNS =
  'id, account, environment, scenario_id, status, created_at, idempotency_key, stage, awaiting_kind, session_id, source_path';

/**
 * The statement of one page of runs (`limit` + 1 rows, newest first), each filter served by
 * an index that reads the page in list order: the scope's `(created_at, id)` index, or the
 * one of scenario, status, stage or awaited kind (migrations 1 and 8). `q` is four exact
 * matches merged by id: the id and the creation key by their unique indexes, the session
 * id and the source path (by their hashes) newest first, so a value thousands of runs share
 * still reads one page. The cursor's row is read by its primary key (whatever the planner
 * would make of the filters without table statistics, as on PGlite) and must itself pass
 * every filter, or the page is empty.
 */
export function runListStatement(
  schema: string,
  columns: string,
  scope: Scope,
  query: RunQuery,
): Statement {
  const params: unknown[] = [scope.account, scope.environment];
  const bind = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const filters = ['account = $1', 'environment = $2'];
  if (query.scenario_id !== undefined) filters.push(`scenario_id = ${bind(query.scenario_id)}`);
  if (query.status !== undefined) filters.push(`status = ${bind(query.status)}`);
  if (query.created_gte !== undefined) filters.push(`created_at >= ${bind(query.created_gte)}`);
  if (query.created_lt !== undefined) filters.push(`created_at < ${bind(query.created_lt)}`);
  if (query.stage !== undefined) filters.push(`stage = ${bind(query.stage)}`);
  if (query.awaiting !== undefined) filters.push(`awaiting_kind = ${bind(query.awaiting)}`);
  const q = query.q === undefined ? undefined : bind(query.q);
  const unique = q === undefined ? [] : [`id = ${q}`, `idempotency_key = ${q}`];
  const shared =
    q === undefined
      ? []
      : [
          `hashtextextended(session_id, 0) = hashtextextended(${q}, 0) AND session_id = ${q}`,
          `hashtextextended(source_path, 0) = hashtextextended(${q}, 0) AND source_path = ${q}`,
        ];
  const matches = [...unique, ...shared];

  let cursor = '';
  const where = [...filters];
  if (query.starting_after !== undefined) {
    cursor = `WITH after_run AS MATERIALIZED (
      SELECT ${FILTERED_COLUMNS} FROM ${schema}.runs WHERE id = ${bind(query.starting_after)}) `;
    const passes = [...filters];
    if (matches.length > 0) passes.push(`(${matches.map((match) => `(${match})`).join(' OR ')})`);
    where.push(
      `(created_at, id) < (SELECT created_at, id FROM after_run WHERE ${passes.join(' AND ')})`,
    );
  }
  const order = `ORDER BY created_at DESC, id DESC LIMIT ${bind(query.limit + 1)}`;
  if (q === undefined) {
    return {
      text: `${cursor}SELECT ${columns} FROM ${schema}.runs WHERE ${where.join(' AND ')} ${order}`,
      params,
    };
  }
  const page = (match: string) =>
    `SELECT id FROM ${schema}.runs WHERE ${[...where, match].join(' AND ')}`;
  // The id and the creation key name one run at most: no order to keep (ordered, the
  // planner may walk the scope's newest-first index looking for the one id).
  const pages = [
    ...unique.map((match) => `(${page(match)})`),
    ...shared.map((match) => `(${page(match)} ${order})`),
  ];
  return {
    text: `${cursor}SELECT ${columns} FROM ${schema}.runs
      WHERE id IN (${pages.join(' UNION ALL ')}) ${order}`,
    params,
  };
}
