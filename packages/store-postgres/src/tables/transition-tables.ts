import {
  assertTransitionWrite,
  StoreError,
  type RunForTransition,
  type StoredRun,
  type StoreTransactionV1,
  type TestClockRow,
  type TimerRow,
  type TransitionWrite,
} from '@programrun/engine';
import { PREPARED_READ, PREPARED_WRITE, type SqlExecutor } from '../sql/sql-database.js';
import { JOB_COLUMNS } from './handoff-job-tables.js';
import { RUN_COLUMNS, runParams } from './run-tables.js';
import { TIMER_COLUMNS } from './timer-tables.js';
import type { RunCache } from './run-cache.js';
import { withTraceContext } from './trace-context-column.js';
import { EVENT_COLUMNS } from './event-bodies.js';

type TransitionTables = Pick<StoreTransactionV1, 'loadRunForTransition' | 'writeTransition'>;

/** The runs a transaction's operations may take from, and tell of what they wrote. */
export interface TransitionRuns {
  readonly cache: RunCache;
  /** Notes a run written in the running transaction (cached once it commits). */
  written(run: StoredRun): void;
}

/** The run columns, with the documents left out (NULL) when the row is at `$4`. */
const RUN_COLUMNS_UNLESS_AT = RUN_COLUMNS.split(', ')
  .map((column) =>
    column === 'snapshot' || column === 'record'
      ? `CASE WHEN r.version = $4 THEN NULL ELSE r.${column} END AS ${column}`
      : `r.${column}`,
  )
  .join(', ');

/** What the write statement reports: runs and settled jobs written, deliveries queued. */
interface Written {
  readonly applied: number;
  readonly deliveries: number;
  /** With a settled job: whether the job's row was written, and the run found at its version. */
  readonly settled: number | null;
  readonly current: number | null;
}

/** The job columns a settle replaces: all but the id and the trace context. */
const SETTLED_JOB_COLUMNS = JOB_COLUMNS.split(', ')
  .filter((column) => column !== 'id' && column !== 'trace_context')
  .join(', ');

/** A run row read with its pending timers and its account's test clock. */
type RunWithState = StoredRun & {
  readonly pending_timers: TimerRow[];
  readonly test_clock: TestClockRow | null;
};

/**
 * The delivery id of event `e` to endpoint `p`, as `deliveryId` in the engine derives it:
 * `wdl_` and the first 32 hex digits of the sha-256 of `<event id>:<endpoint id>`.
 */
const DELIVERY_ID = `'wdl_' || left(encode(sha256(convert_to(e.id || ':' || p.id, 'UTF8')), 'hex'), 32)`;

/** Whether endpoint `p` subscribes to event `e`'s type, as `matchesEnabledEvents` decides. */
const SUBSCRIBED = `EXISTS (SELECT 1 FROM json_array_elements_text(p.enabled_events) AS pattern(value)
  WHERE pattern.value = '*' OR pattern.value = e.type
     OR (right(pattern.value, 2) = '.*' AND starts_with(e.type, left(pattern.value, -1))))`;

/**
 * A transition in two statements. The read takes the run, its pending timers and its
 * account's test clock in one round trip; the write is one statement whose first part is
 * the run's compare-and-swap (or insert) and whose other parts (records, their outbox
 * events fanned out to the subscribed endpoints, timers, handoff jobs) write only when
 * that part wrote the run, so a conflict writes nothing and the write is one round trip.
 */
export function transitionTables(
  sql: SqlExecutor,
  schema: string,
  runs: TransitionRuns,
): TransitionTables {
  return {
    async loadRunForTransition(scope, id): Promise<RunForTransition | undefined> {
      // A run this host wrote last is read without its documents (the cached run's).
      const cached = runs.cache.get(scope, id);
      const { rows } = await sql.query<RunWithState>(
        `SELECT ${RUN_COLUMNS_UNLESS_AT},
           (SELECT coalesce(json_agg(t ORDER BY t.due_at, t.id), '[]')
              FROM (SELECT ${TIMER_COLUMNS} FROM ${schema}.timers
                    WHERE run_id = r.id AND status = 'pending') t) AS pending_timers,
           (SELECT json_build_object('account', c.account, 'offset_ms', c.offset_ms,
                     'updated_at', c.updated_at)
              FROM ${schema}.test_clocks c
              WHERE c.account = r.account AND r.environment = 'test') AS test_clock
         FROM ${schema}.runs r WHERE r.id = $1 AND r.account = $2 AND r.environment = $3`,
        [id, scope.account, scope.environment, cached?.version ?? 0],
        PREPARED_READ,
      );
      const row = withTraceContext(rows)[0];
      if (!row) return undefined;
      const { pending_timers: pendingTimers, test_clock: testClock, ...stored } = row;
      const run = cached && stored.version === cached.version ? cached : stored;
      return { run, pendingTimers, testClock: testClock ?? undefined };
    },

    async writeTransition(write: TransitionWrite) {
      assertTransitionWrite(write);
      const { text, params } = transitionStatement(schema, write);
      // The text varies only with which parts a write has: a few dozen prepared statements.
      // The write is whole by itself: in a single-write unit of work it commits on its own.
      const { rows } = await sql.query<Written>(text, params, PREPARED_WRITE);
      const written = rows[0]!;
      const conflict = () =>
        new StoreError(
          'version_conflict',
          `run ${write.run.id} is not at version ${write.expectedVersion}`,
        );
      if (write.settleHandoffJob && written.current !== 1) throw conflict();
      if (write.settleHandoffJob && written.settled !== 1) {
        throw new StoreError(
          'lease_lost',
          `handoff job ${write.settleHandoffJob.job.id} is no longer held`,
        );
      }
      if (written.applied !== 1) throw conflict();
      runs.written(write.run);
      return { deliveries: written.deliveries };
    },
  };
}

/** The one statement of a transition's write; parts with nothing to write are left out. */
function transitionStatement(
  schema: string,
  write: TransitionWrite,
): { text: string; params: unknown[] } {
  const { run } = write;
  const params: unknown[] = [...runParams(run)];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const parts: string[] = [];
  // A settled job's row is written first, fenced on its lease, once the run's row is locked
  // at the expected version (the order every transition locks rows in: run, then job); the
  // run's part, and so every other part, writes only when the fence held.
  let current = 'NULL';
  let settledJob = 'NULL';
  let fenced = '';
  if (write.settleHandoffJob) {
    const { job, expected } = write.settleHandoffJob;
    parts.push(`current_run AS (
      SELECT 1 FROM ${schema}.runs
      WHERE id = $1 AND account = $2 AND environment = $3 AND version = ${param(write.expectedVersion)}
      FOR UPDATE)`);
    parts.push(`settled_job AS (
      UPDATE ${schema}.handoff_jobs AS j SET (${SETTLED_JOB_COLUMNS}) = (
        SELECT ${SETTLED_JOB_COLUMNS}
        FROM json_populate_record(NULL::${schema}.handoff_jobs, ${param(JSON.stringify(job))}::json))
      WHERE j.id = ${param(job.id)} AND j.lease_owner IS NOT DISTINCT FROM ${param(expected.lease_owner)}::text
        AND j.calls = ${param(expected.calls)} AND EXISTS (SELECT 1 FROM current_run)
      RETURNING 1)`);
    current = '(SELECT count(*) FROM current_run)';
    settledJob = '(SELECT count(*) FROM settled_job)';
    fenced = ' AND EXISTS (SELECT 1 FROM settled_job)';
  }
  if (write.expectedVersion === null) {
    parts.push(`run AS (
      INSERT INTO ${schema}.runs (${RUN_COLUMNS})
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, ${param(run.trace_context ?? null)})
      RETURNING id)`);
  } else {
    parts.push(`run AS (
      UPDATE ${schema}.runs SET version = $4, scenario_id = $5, status = $6, created_at = $7,
        idempotency_key = $8, snapshot = $9, last_sequence = $10, record = $11
      WHERE id = $1 AND account = $2 AND environment = $3 AND version = ${param(write.expectedVersion)}${fenced}
      RETURNING id)`);
  }
  const ran = 'EXISTS (SELECT 1 FROM run)';
  let deliveries = '0';
  if (write.records.length > 0) {
    const records = param(
      JSON.stringify(
        write.records.map((record) => ({
          run_id: record.run_id,
          sequence: record.sequence,
          id: record.id,
          type: record.type,
          created: record.created,
          record,
        })),
      ),
    );
    const rows = `json_to_recordset(${records}::json)
        AS r(run_id text, sequence integer, id text, type text, created text, record json)`;
    parts.push(`records AS (
      INSERT INTO ${schema}.lifecycle_records (run_id, sequence, account, environment, record)
      SELECT r.run_id, r.sequence, $2, $3, r.record FROM ${rows}
      WHERE ${ran})`);
    // Each record is also its outbox event, stored once: the event keeps no body of its
    // own, and readers derive it from the record (`withBodies`).
    parts.push(`events AS (
      INSERT INTO ${schema}.webhook_events (${EVENT_COLUMNS})
      SELECT r.id, $2, $3, r.type, r.created, r.run_id, r.sequence, NULL,
        ${param(run.trace_context ?? null)}::text
      FROM ${rows}
      WHERE ${ran} ORDER BY r.sequence
      RETURNING id, type)`);
    const due = param(write.deliveriesDueAt);
    parts.push(`deliveries AS (
      INSERT INTO ${schema}.webhook_deliveries (id, event_id, endpoint_id, account, environment,
        status, attempts, schedule_attempts, next_attempt_at, created_at, updated_at)
      SELECT ${DELIVERY_ID}, e.id, p.id, $2, $3, 'pending', 0, 0, ${due}, ${due}, ${due}
      FROM events e JOIN ${schema}.webhook_endpoints p
        ON p.account = $2 AND p.environment = $3 AND p.status = 'enabled'
      WHERE ${SUBSCRIBED}
      RETURNING 1)`);
    deliveries = '(SELECT count(*) FROM deliveries)';
  }
  if (write.scheduleTimers.length > 0) {
    parts.push(`scheduled AS (
      INSERT INTO ${schema}.timers (${TIMER_COLUMNS})
      SELECT ${TIMER_COLUMNS}
      FROM json_populate_recordset(NULL::${schema}.timers, ${param(JSON.stringify(write.scheduleTimers))}::json)
      WHERE ${ran})`);
  }
  // Settled timers are deleted, fired or cancelled alike (as `settleTimers` does).
  const settled = [...write.cancelTimers, ...(write.firedTimer === null ? [] : [write.firedTimer])];
  if (settled.length > 0) {
    parts.push(`settled AS (
      DELETE FROM ${schema}.timers WHERE id = ANY(${param(settled)}::text[]) AND ${ran})`);
  }
  if (write.closeHandoffJobs) {
    parts.push(`closed AS (
      UPDATE ${schema}.handoff_jobs
      SET status = 'closed', lease_owner = NULL, lease_until = NULL,
        updated_at = ${param(write.closeHandoffJobs.at)}
      WHERE run_id = $1 AND status <> 'closed'
        AND id <> ALL(${param(write.closeHandoffJobs.keep)}::text[]) AND ${ran})`);
  }
  if (write.insertHandoffJobs.length > 0) {
    parts.push(`queued AS (
      INSERT INTO ${schema}.handoff_jobs (${JOB_COLUMNS})
      SELECT ${JOB_COLUMNS}
      FROM json_populate_recordset(NULL::${schema}.handoff_jobs, ${param(JSON.stringify(write.insertHandoffJobs))}::json)
      WHERE ${ran})`);
  }
  return {
    text: `WITH ${parts.join(',\n')}
      SELECT (SELECT count(*) FROM run)::integer AS applied, ${deliveries}::integer AS deliveries,
        ${settledJob}::integer AS settled, ${current}::integer AS current`,
    params,
  };
}
