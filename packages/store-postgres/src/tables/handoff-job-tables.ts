import {
  StoreError,
  type HandoffJobQuery,
  type HandoffJobRow,
  type HandoffPartyLoad,
  type StoreTransactionV1,
} from '@programrun/engine';
import { PREPARED, PREPARED_READ, type SqlExecutor } from '../sql/sql-database.js';
import { claimHandoffJobs } from './handoff-job-claim.js';
import { withTraceContext } from './trace-context-column.js';

type HandoffJobTables = Pick<
  StoreTransactionV1,
  | 'insertHandoffJobs'
  | 'handoffJobsOfRun'
  | 'claimHandoffJobs'
  | 'updateHandoffJob'
  | 'closeHandoffJobs'
  | 'nextHandoffJob'
  | 'handoffPartyLoads'
>;

export const JOB_COLUMNS =
  'id, run_id, account, environment, party, step, attempt, idempotency_key, request, deadline, status, calls, next_attempt_at, lease_owner, lease_until, last_error, created_at, updated_at, trace_context';

/** `environment = $1`, then `account` and `party` when the query names them. */
function queryFilter(query: HandoffJobQuery, params: unknown[]): string {
  params.push(query.environment);
  let where = `environment = $${params.length}`;
  if (query.account !== undefined) {
    params.push(query.account);
    where += ` AND account = $${params.length}`;
  }
  if (query.party !== undefined) {
    params.push(query.party);
    where += ` AND party = $${params.length}`;
  }
  return where;
}

/** A load row as counted by PostgreSQL (`count` is a bigint, read as text by some drivers). */
interface LoadRow {
  readonly party: string;
  readonly in_flight: number | string;
  readonly queued: number | string;
  readonly accepted: number | string;
  readonly exhausted: number | string;
  readonly next_attempt_at: string | null;
}

/**
 * Durable handoff jobs. Workers lease due ones fairly across accounts, within a party's
 * `max_in_flight` on every host (`handoff-job-claim.ts`); a settle replaces the row only
 * while the worker still holds it (compare-and-swap on `lease_owner` and `calls`). A job's
 * `trace_context` (its run's) is written with the job and never changes.
 */
export function handoffJobTables(sql: SqlExecutor, schema: string): HandoffJobTables {
  return {
    async insertHandoffJobs(jobs: readonly HandoffJobRow[]) {
      if (jobs.length === 0) return;
      await sql.query(
        `INSERT INTO ${schema}.handoff_jobs (${JOB_COLUMNS})
         SELECT ${JOB_COLUMNS} FROM json_populate_recordset(NULL::${schema}.handoff_jobs, $1::json)`,
        [JSON.stringify(jobs)],
      );
    },

    async handoffJobsOfRun(runId: string) {
      const { rows } = await sql.query<HandoffJobRow>(
        `SELECT ${JOB_COLUMNS} FROM ${schema}.handoff_jobs WHERE run_id = $1`,
        [runId],
        PREPARED_READ,
      );
      return withTraceContext(rows).sort((a, b) =>
        a.step === b.step ? a.attempt - b.attempt : a.step < b.step ? -1 : 1,
      );
    },

    claimHandoffJobs: async (claim) =>
      withTraceContext(await claimHandoffJobs(sql, schema, JOB_COLUMNS.split(', '), claim)),

    async updateHandoffJob(job, expected) {
      const { rowCount } = await sql.query(
        `UPDATE ${schema}.handoff_jobs SET run_id = $2, account = $3, environment = $4,
           party = $5, step = $6, attempt = $7, idempotency_key = $8, request = $9,
           deadline = $10, status = $11, calls = $12, next_attempt_at = $13,
           lease_owner = $14, lease_until = $15, last_error = $16, created_at = $17,
           updated_at = $18
         WHERE id = $1 AND lease_owner IS NOT DISTINCT FROM $19::text AND calls = $20`,
        [
          job.id,
          job.run_id,
          job.account,
          job.environment,
          job.party,
          job.step,
          job.attempt,
          job.idempotency_key,
          JSON.stringify(job.request),
          job.deadline,
          job.status,
          job.calls,
          job.next_attempt_at,
          job.lease_owner,
          job.lease_until,
          job.last_error === null ? null : JSON.stringify(job.last_error),
          job.created_at,
          job.updated_at,
          expected.lease_owner,
          expected.calls,
        ],
        PREPARED,
      );
      if (rowCount === 1) return;
      const { rows } = await sql.query<{ lease_owner: string | null; calls: number }>(
        `SELECT lease_owner, calls FROM ${schema}.handoff_jobs WHERE id = $1`,
        [job.id],
      );
      const current = rows[0];
      if (!current) throw new StoreError('not_found', `handoff job ${job.id} does not exist`);
      throw new StoreError(
        'version_conflict',
        `handoff job ${job.id} is at call ${current.calls} held by ${String(current.lease_owner)}, ` +
          `not call ${expected.calls} held by ${String(expected.lease_owner)}`,
      );
    },

    async closeHandoffJobs(runId: string, keep: readonly string[], at: string) {
      await sql.query(
        `UPDATE ${schema}.handoff_jobs
         SET status = 'closed', lease_owner = NULL, lease_until = NULL, updated_at = $3
         WHERE run_id = $1 AND status <> 'closed' AND id <> ALL($2::text[])`,
        [runId, keep, at],
      );
    },

    async nextHandoffJob(query: HandoffJobQuery) {
      const params: unknown[] = [];
      const where = queryFilter(query, params);
      const { rows } = await sql.query<{ next_attempt_at: string }>(
        `SELECT next_attempt_at FROM ${schema}.handoff_jobs WHERE status = 'queued' AND ${where}
         ORDER BY next_attempt_at LIMIT 1`,
        params,
      );
      return rows[0]?.next_attempt_at;
    },

    async handoffPartyLoads(
      query: HandoffJobQuery,
      leaseNow: string,
      ended: readonly string[] = [],
    ) {
      const params: unknown[] = [];
      const where = queryFilter(query, params);
      params.push(leaseNow);
      const now = `$${params.length}`;
      params.push(ended);
      const leased = `status = 'queued' AND lease_until IS NOT NULL AND lease_until > ${now}`;
      // A named job's call is over (its result being written): neither flying nor waiting.
      const flying = `${leased} AND NOT (id = ANY($${params.length}::text[]))`;
      const waiting = `status = 'queued' AND (lease_until IS NULL OR lease_until <= ${now})`;
      const { rows } = await sql.query<LoadRow>(
        `SELECT party,
           count(*) FILTER (WHERE ${flying}) AS in_flight,
           count(*) FILTER (WHERE ${waiting}) AS queued,
           count(*) FILTER (WHERE status = 'accepted') AS accepted,
           count(*) FILTER (WHERE status = 'exhausted') AS exhausted,
           min(next_attempt_at) FILTER (WHERE ${waiting}) AS next_attempt_at
         FROM ${schema}.handoff_jobs WHERE status <> 'closed' AND ${where}
         GROUP BY party`,
        params,
      );
      return rows
        .map((row): HandoffPartyLoad => ({
          party: row.party,
          in_flight: Number(row.in_flight),
          queued: Number(row.queued),
          accepted: Number(row.accepted),
          exhausted: Number(row.exhausted),
          next_attempt_at: row.next_attempt_at,
        }))
        .sort((a, b) => (a.party < b.party ? -1 : a.party > b.party ? 1 : 0));
    },
  };
}
