import { assertTransitionWrite, StoreError, type TransitionWrite } from '@programrun/engine';
import { EVENT_COLUMNS } from './event-bodies.js';
import { JOB_COLUMNS } from './handoff-job-tables.js';
import { RUN_FILTER_COLUMNS, runFilterValues } from './run-filter-columns.js';
import { RUN_COLUMNS } from './run-tables.js';
import { TIMER_COLUMNS } from './timer-tables.js';

/** What the write statement reports for each write, in the order given. */
export interface WriteOutcome {
  /** Whether the run's part was written (its compare-and-swap held, or it was inserted). */
  readonly applied: boolean;
  readonly deliveries: number;
  /** With a settled job: whether the job's row was written, and the run found at its version. */
  readonly settled: boolean;
  readonly current: boolean;
}

/** The job columns a settle replaces: all but the id and the trace context. */
const SETTLED_JOB_COLUMNS = JOB_COLUMNS.split(', ')
  .filter((column) => column !== 'id' && column !== 'trace_context')
  .join(', ');

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
 * The columns of each write's row, as `json_to_recordset` reads them; the run's two
 * documents (`snapshot`, `record`) travel as parameters of their own and join the row by
 * position, so the server parses each once (a json column of a JSON row is parsed with the
 * row, then again as a value of its own).
 */
const WRITE_ROW = `position int, id text, account text, environment text, version int,
  scenario_id text, status text, created_at text, idempotency_key text,
  last_sequence int, trace_context text, expected int, deliveries_due text,
  settle_job json, settle_job_id text, settle_owner text, settle_calls int, close_at text,
  close_keep json, stage text, awaiting_kind text, session_id text, source_path text`;

/**
 * The one statement that writes `writes` (transitions of different runs, none twice), each
 * whole or not at all by itself: every part of a write (records and their outbox events
 * fanned out to the enabled endpoints of the write's own scope subscribed to them, timers
 * scheduled and settled, handoff jobs closed and queued) is written only when that write's
 * run part was (its compare-and-swap held, or it was inserted), and a write that settles a
 * handoff job writes its run only when the job was still held as expected, once the run's
 * row is locked at the expected version. A new run whose id or idempotency key exists is
 * not written (`ON CONFLICT DO NOTHING`), so it fails alone. The text varies only with
 * which parts the writes have and how many there are; the values travel as JSON.
 */
export function transitionWriteStatement(
  schema: string,
  writes: readonly TransitionWrite[],
): { text: string; params: unknown[] } {
  // Each write's parts are its run's (`assertTransitionWrite`): they are joined by run id.
  for (const write of writes) assertTransitionWrite(write);
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const rows = writes.map((write, position) => ({
    position,
    id: write.run.id,
    account: write.run.account,
    environment: write.run.environment,
    version: write.run.version,
    scenario_id: write.run.scenario_id,
    status: write.run.status,
    created_at: write.run.created_at,
    idempotency_key: write.run.idempotency_key,
    last_sequence: write.run.last_sequence,
    trace_context: write.run.trace_context ?? null,
    expected: write.expectedVersion,
    deliveries_due: write.deliveriesDueAt,
    settle_job: write.settleHandoffJob?.job ?? null,
    settle_job_id: write.settleHandoffJob?.job.id ?? null,
    settle_owner: write.settleHandoffJob?.expected.lease_owner ?? null,
    settle_calls: write.settleHandoffJob?.expected.calls ?? null,
    close_at: write.closeHandoffJobs?.at ?? null,
    close_keep: write.closeHandoffJobs?.keep ?? null,
    ...runFilterValues(write.run.record),
  }));
  // The LIMIT (as many rows as there are) tells the planner how many runs the statement
  // touches: a set-returning function is otherwise taken for 100 rows, and a plan for 100
  // runs hash-joins a scan of the whole runs table (every page, on every transition) until
  // the table is large enough for 100 index probes to look cheaper.
  const rowsParam = param(JSON.stringify(rows));
  const documents = writes
    .map(
      ({ run }, position) =>
        `(${position}, ${param(run.snapshot == null ? null : JSON.stringify(run.snapshot))}::json, ${param(JSON.stringify(run.record))}::json)`,
    )
    .join(', ');
  const parts: string[] = [
    `w AS MATERIALIZED (SELECT w.*, d.snapshot, d.record
      FROM json_to_recordset(${rowsParam}::json) AS w(${WRITE_ROW})
      JOIN (VALUES ${documents}) AS d(position, snapshot, record) ON d.position = w.position
      LIMIT ${writes.length})`,
  ];
  const several = writes.length > 1;
  const updates = writes.some((write) => write.expectedVersion !== null);
  const inserts = writes.some((write) => write.expectedVersion === null);
  const settles = writes.some((write) => write.settleHandoffJob !== null);
  // Several runs' rows are locked in id order, so two batches never wait on each other.
  if (several && updates) {
    parts.push(`locked AS (
      SELECT r.id, r.version, r.account, r.environment FROM ${schema}.runs r
      WHERE r.id IN (SELECT id FROM w WHERE expected IS NOT NULL)
      ORDER BY r.id FOR UPDATE)`);
  }
  // A settled job's row is written first, fenced on its lease, once the run's row is
  // locked at the expected version (the order every transition locks rows in: run, then
  // job); the run's part, and so every other part, writes only when the fence held.
  let fenced = '';
  if (settles) {
    parts.push(`current_run AS (
      SELECT r.id FROM ${several ? 'locked' : `${schema}.runs`} r JOIN w ON w.id = r.id
      WHERE w.settle_job IS NOT NULL AND r.version = w.expected
        AND r.account = w.account AND r.environment = w.environment${
          several ? '' : ' FOR UPDATE OF r'
        })`);
    parts.push(`settled_job AS (
      UPDATE ${schema}.handoff_jobs AS j SET (${SETTLED_JOB_COLUMNS}) = (
        SELECT ${SETTLED_JOB_COLUMNS}
        FROM json_populate_record(NULL::${schema}.handoff_jobs, w.settle_job))
      FROM w
      WHERE j.id = w.settle_job_id AND j.lease_owner IS NOT DISTINCT FROM w.settle_owner
        AND j.calls = w.settle_calls AND w.id IN (SELECT id FROM current_run)
      RETURNING w.id AS run_id)`);
    fenced = `
        AND (w.settle_job IS NULL OR w.id IN (SELECT run_id FROM settled_job))`;
  }
  const written: string[] = [];
  if (updates) {
    parts.push(`updated AS (
      UPDATE ${schema}.runs AS r SET version = w.version, scenario_id = w.scenario_id,
        status = w.status, created_at = w.created_at, idempotency_key = w.idempotency_key,
        snapshot = w.snapshot, last_sequence = w.last_sequence, record = w.record,
        stage = w.stage, awaiting_kind = w.awaiting_kind, session_id = w.session_id,
        source_path = w.source_path
      FROM w
      WHERE r.id = w.id AND r.account = w.account AND r.environment = w.environment
        AND w.expected IS NOT NULL AND r.version = w.expected${
          several ? ' AND r.id IN (SELECT id FROM locked)' : ''
        }${fenced}
      RETURNING r.id)`);
    written.push('SELECT id FROM updated');
  }
  if (inserts) {
    parts.push(`inserted AS (
      INSERT INTO ${schema}.runs (${RUN_COLUMNS}, ${RUN_FILTER_COLUMNS})
      SELECT ${RUN_COLUMNS}, ${RUN_FILTER_COLUMNS} FROM w WHERE w.expected IS NULL
      ON CONFLICT DO NOTHING
      RETURNING id)`);
    written.push('SELECT id FROM inserted');
  }
  parts.push(`run AS (${written.join(' UNION ALL ')})`);
  const ran = 'IN (SELECT id FROM run)';
  let deliveries = '0';
  const records = writes.flatMap((write) =>
    write.records.map((record) => ({
      run_id: record.run_id,
      sequence: record.sequence,
      id: record.id,
      type: record.type,
      created: record.created,
      record,
    })),
  );
  if (records.length > 0) {
    parts.push(`rec AS MATERIALIZED (SELECT * FROM json_to_recordset(${param(JSON.stringify(records))}::json)
      AS r(run_id text, sequence integer, id text, type text, created text, record json))`);
    parts.push(`records AS (
      INSERT INTO ${schema}.lifecycle_records (run_id, sequence, account, environment, record)
      SELECT r.run_id, r.sequence, w.account, w.environment, r.record
      FROM rec r JOIN w ON w.id = r.run_id
      WHERE r.run_id ${ran})`);
    // Each record is also its outbox event, stored once: the event keeps no body of its
    // own, and readers derive it from the record (`withBodies`).
    parts.push(`events AS (
      INSERT INTO ${schema}.webhook_events (${EVENT_COLUMNS})
      SELECT r.id, w.account, w.environment, r.type, r.created, r.run_id, r.sequence, NULL,
        w.trace_context
      FROM rec r JOIN w ON w.id = r.run_id
      WHERE r.run_id ${ran} ORDER BY r.run_id, r.sequence
      RETURNING id, type, account, environment, run_id)`);
    parts.push(`deliveries AS (
      INSERT INTO ${schema}.webhook_deliveries (id, event_id, endpoint_id, account, environment,
        status, attempts, schedule_attempts, next_attempt_at, created_at, updated_at)
      SELECT ${DELIVERY_ID}, e.id, p.id, e.account, e.environment, 'pending', 0, 0,
        w.deliveries_due, w.deliveries_due, w.deliveries_due
      FROM events e JOIN w ON w.id = e.run_id
      JOIN ${schema}.webhook_endpoints p
        ON p.account = e.account AND p.environment = e.environment AND p.status = 'enabled'
      WHERE ${SUBSCRIBED}
      RETURNING event_id)`);
    deliveries = `(SELECT count(*) FROM deliveries d JOIN events e ON e.id = d.event_id
        WHERE e.run_id = w.id)`;
  }
  /** Inserts rows of `table` (each of a run of the writes) for the runs written. */
  const insertRows = (name: string, table: string, columns: string, rows: readonly object[]) => {
    if (rows.length === 0) return;
    parts.push(`${name} AS (
      INSERT INTO ${schema}.${table} (${columns})
      SELECT ${columns}
      FROM json_populate_recordset(NULL::${schema}.${table}, ${param(JSON.stringify(rows))}::json)
      WHERE run_id ${ran})`);
  };
  insertRows(
    'scheduled',
    'timers',
    TIMER_COLUMNS,
    writes.flatMap((write) => write.scheduleTimers),
  );
  // Settled timers are deleted, fired or cancelled alike (as `settleTimers` does).
  const settledTimers = writes.flatMap((write) => [
    ...write.cancelTimers,
    ...(write.firedTimer === null ? [] : [write.firedTimer]),
  ]);
  // One parameter per id, not an array: the plan kept for the statement (generic, made
  // without the values) then knows how many rows it deletes and probes the primary key for
  // each, where an array of unknown length is taken for ten ids and, on a table of a few
  // dozen pages (pending timers only), scanned whole on every transition.
  if (settledTimers.length > 0) {
    parts.push(`settled AS (
      DELETE FROM ${schema}.timers
      WHERE id IN (${settledTimers.map((id) => `${param(id)}::text`).join(', ')})
        AND run_id ${ran})`);
  }
  if (writes.some((write) => write.closeHandoffJobs !== null)) {
    parts.push(`closed AS (
      UPDATE ${schema}.handoff_jobs AS j
      SET status = 'closed', lease_owner = NULL, lease_until = NULL, updated_at = w.close_at
      FROM w
      WHERE j.run_id = w.id AND w.close_at IS NOT NULL AND j.status <> 'closed'
        AND j.id NOT IN (SELECT json_array_elements_text(w.close_keep)) AND w.id ${ran})`);
  }
  insertRows(
    'queued',
    'handoff_jobs',
    JOB_COLUMNS,
    writes.flatMap((write) => write.insertHandoffJobs),
  );
  return {
    text: `WITH ${parts.join(',\n')}
      SELECT w.position, w.id ${ran} AS applied, ${deliveries}::integer AS deliveries,
        ${settles ? `w.id IN (SELECT run_id FROM settled_job)` : 'false'} AS settled,
        ${settles ? `w.id IN (SELECT id FROM current_run)` : 'false'} AS current
      FROM w ORDER BY w.position`,
    params,
  };
}

/**
 * The error a write comes to when the statement reported it not written, or undefined when
 * it was: a settle whose run was not at its version is a `version_conflict` and one whose
 * job was no longer held `lease_lost`; a new run not inserted is a `duplicate_key`, any
 * other run not at its version a `version_conflict`.
 */
export function writeError(write: TransitionWrite, outcome: WriteOutcome): StoreError | undefined {
  const conflict = () =>
    new StoreError(
      'version_conflict',
      `run ${write.run.id} is not at version ${write.expectedVersion}`,
    );
  if (write.settleHandoffJob && !outcome.current) return conflict();
  if (write.settleHandoffJob && !outcome.settled)
    return new StoreError(
      'lease_lost',
      `handoff job ${write.settleHandoffJob.job.id} is no longer held`,
    );
  if (outcome.applied) return undefined;
  if (write.expectedVersion === null)
    return new StoreError('duplicate_key', `run ${write.run.id} or its idempotency key exists`);
  return conflict();
}
