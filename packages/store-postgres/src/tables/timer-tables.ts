import type { StoreTransactionV1, TimerClaim, TimerQuery, TimerRow } from '@programrun/engine';
import { PREPARED_READ, type SqlExecutor } from '../sql/sql-database.js';

type TimerTables = Pick<
  StoreTransactionV1,
  | 'scheduleTimers'
  | 'pendingTimers'
  | 'settleTimers'
  | 'dueTimers'
  | 'claimTimers'
  | 'releaseTimerLeases'
  | 'nextTimer'
>;

export const TIMER_COLUMNS =
  'id, run_id, account, environment, kind, step, attempt, due_at, payload, status';

/** `environment = $1` and, for one account's test clock, `account = $2`. */
function scopeFilter(query: TimerQuery, params: unknown[]): string {
  params.push(query.environment);
  if (query.account === undefined) return 'environment = $1';
  params.push(query.account);
  return 'environment = $1 AND account = $2';
}

/**
 * Durable timers. Settled timers are deleted (the lifecycle records keep the history), so
 * the partial indexes on pending timers stay as small as the work still to do. Claims
 * lock the rows they lease with `FOR UPDATE SKIP LOCKED`: hosts claiming at once split
 * the due timers and never wait for each other. `settled` hears of the runs whose timers
 * `settleTimers` deleted.
 */
export function timerTables(
  sql: SqlExecutor,
  schema: string,
  settled: (runIds: readonly string[]) => void = () => {},
): TimerTables {
  return {
    async scheduleTimers(timers: readonly TimerRow[]) {
      if (timers.length === 0) return;
      await sql.query(
        `INSERT INTO ${schema}.timers (${TIMER_COLUMNS})
         SELECT ${TIMER_COLUMNS} FROM json_populate_recordset(NULL::${schema}.timers, $1::json)`,
        [JSON.stringify(timers)],
      );
    },

    async pendingTimers(runId: string) {
      const { rows } = await sql.query<TimerRow>(
        `SELECT ${TIMER_COLUMNS} FROM ${schema}.timers WHERE run_id = $1 AND status = 'pending'
         ORDER BY due_at, id`,
        [runId],
        PREPARED_READ,
      );
      return rows;
    },

    async settleTimers(ids: readonly string[]) {
      if (ids.length === 0) return;
      // The runs are told of (`settled`): their pending timers changed with no write of theirs.
      const { rows } = await sql.query<{ run_id: string }>(
        `DELETE FROM ${schema}.timers WHERE id = ANY($1::text[]) RETURNING run_id`,
        [ids],
      );
      settled(rows.map((row) => row.run_id));
    },

    async dueTimers(query: TimerQuery, now: string, limit: number) {
      const params: unknown[] = [];
      const where = scopeFilter(query, params);
      params.push(now, limit);
      const { rows } = await sql.query<TimerRow>(
        `SELECT ${TIMER_COLUMNS} FROM ${schema}.timers
         WHERE status = 'pending' AND ${where} AND due_at <= $${params.length - 1}
         ORDER BY due_at, id LIMIT $${params.length}`,
        params,
      );
      return rows;
    },

    async claimTimers(claim: TimerClaim) {
      const params: unknown[] = [];
      const where = scopeFilter(claim, params);
      params.push(claim.due_at, claim.lease_now, claim.limit, claim.lease_until);
      const n = params.length;
      const { rows } = await sql.query<TimerRow>(
        `WITH due AS (
           SELECT id FROM ${schema}.timers
           WHERE status = 'pending' AND ${where} AND due_at <= $${n - 3}
             AND (lease_until IS NULL OR lease_until <= $${n - 2})
           ORDER BY due_at, id LIMIT $${n - 1}
           FOR UPDATE SKIP LOCKED
         )
         UPDATE ${schema}.timers AS t SET lease_until = $${n}
         FROM due WHERE t.id = due.id
         RETURNING ${TIMER_COLUMNS.split(', ')
           .map((column) => `t.${column}`)
           .join(', ')}`,
        params,
      );
      return rows.sort((a, b) =>
        a.due_at === b.due_at ? (a.id < b.id ? -1 : 1) : a.due_at < b.due_at ? -1 : 1,
      );
    },

    async releaseTimerLeases(ids: readonly string[], leaseUntil: string) {
      if (ids.length === 0) return;
      await sql.query(
        `UPDATE ${schema}.timers SET lease_until = NULL
         WHERE id = ANY($1::text[]) AND status = 'pending' AND lease_until = $2`,
        [ids, leaseUntil],
      );
    },

    async nextTimer(query: TimerQuery) {
      const params: unknown[] = [];
      const where = scopeFilter(query, params);
      const { rows } = await sql.query<TimerRow>(
        `SELECT ${TIMER_COLUMNS} FROM ${schema}.timers WHERE status = 'pending' AND ${where}
         ORDER BY due_at, id LIMIT 1`,
        params,
      );
      return rows[0];
    },
  };
}
