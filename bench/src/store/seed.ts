import type { SqlDatabase } from '@programrun/store-postgres';
import type { CapturedCreate } from './create-template.js';

/** Seeded runs are committed in transactions of this many. */
const BATCH = 5_000;

/** `prun_seed` and 20 digits: as long as a real run id. */
const RUN_ID = `'prun_seed' || lpad(i::text, 20, '0')`;
/** ISO times 10 ms apart, in 2025: older than every run the benchmark creates. */
const CREATED_AT = `to_char(timestamp '2025-01-01' + i * interval '10 milliseconds', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Inserts copies of a captured create (its run, lifecycle records, outbox events, pending
 * timers and completed Idempotency-Key record) numbered `from` to `to - 1`, with
 * `generate_series` into the store's own tables: every index grows as real creates make
 * it grow. Ends with `VACUUM (ANALYZE)` and `CHECKPOINT` (when the role may), so neither
 * autovacuum nor writing the seeded pages back lands in the measurement.
 *
 * @example
 * ```ts
 * await seedRuns(database, '"bench_1"', captured, 0, 100_000);
 * ```
 */
export async function seedRuns(
  database: SqlDatabase,
  schema: string,
  captured: CapturedCreate,
  from: number,
  to: number,
): Promise<void> {
  const { run, records, events, timers, idempotency } = captured;
  for (let start = from; start < to; start += BATCH) {
    const series = [start, Math.min(start + BATCH, to) - 1];
    await database.transaction(async (sql) => {
      await sql.query(
        `INSERT INTO ${schema}.runs (id, account, environment, version, scenario_id, status,
           created_at, idempotency_key, snapshot, last_sequence, record,
           stage, awaiting_kind, session_id, source_path)
         SELECT ${RUN_ID}, $3, $4, $5, $6, $7, ${CREATED_AT}, 'seed-' || i, $8::json, $9, $10::json,
           $10::json ->> 'stage', $10::json -> 'awaiting' ->> 'kind', $10::json ->> 'session_id',
           $10::json ->> 'source_path'
         FROM generate_series($1::int, $2::int) AS i`,
        [
          ...series,
          run.account,
          run.environment,
          run.version,
          run.scenario_id,
          run.status,
          JSON.stringify(run.snapshot),
          run.last_sequence,
          JSON.stringify(run.record),
        ],
      );
      await sql.query(
        `INSERT INTO ${schema}.lifecycle_records (run_id, sequence, account, environment, record)
         SELECT ${RUN_ID}, r.sequence, $3, $4, r.record
         FROM generate_series($1::int, $2::int) AS i
           CROSS JOIN json_to_recordset($5::json) AS r(sequence integer, record json)`,
        [
          ...series,
          run.account,
          run.environment,
          JSON.stringify(records.map((record) => ({ sequence: record.sequence, record }))),
        ],
      );
      await sql.query(
        `INSERT INTO ${schema}.webhook_events (id, account, environment, type, created, run_id, sequence, body)
         SELECT 'evt_' || md5(i || ':' || e.sequence), $3, $4, e.type, e.created, ${RUN_ID}, e.sequence, e.body
         FROM generate_series($1::int, $2::int) AS i
           CROSS JOIN json_to_recordset($5::json) AS e(sequence integer, type text, created text, body text)`,
        [...series, run.account, run.environment, JSON.stringify(events)],
      );
      await sql.query(
        `INSERT INTO ${schema}.timers (id, run_id, account, environment, kind, step, attempt, due_at, payload, status)
         SELECT 'tmr_' || md5(i || ':' || t.n), ${RUN_ID}, $3, $4, t.kind, t.step, t.attempt, t.due_at, t.payload, t.status
         FROM generate_series($1::int, $2::int) AS i
           CROSS JOIN json_to_recordset($5::json)
             AS t(n integer, kind text, step text, attempt integer, due_at text, payload json, status text)`,
        [
          ...series,
          run.account,
          run.environment,
          JSON.stringify(timers.map((timer, n) => ({ ...timer, n }))),
        ],
      );
      await sql.query(
        `INSERT INTO ${schema}.idempotency_keys (account, environment, key, fingerprint, state,
           response, locked_until, created_at, expires_at)
         SELECT $3, $4, 'seed-' || i, $5, $6, $7::json, $8, ${CREATED_AT}, $9
         FROM generate_series($1::int, $2::int) AS i`,
        [
          ...series,
          idempotency.account,
          idempotency.environment,
          idempotency.fingerprint,
          idempotency.state,
          JSON.stringify(idempotency.response),
          idempotency.locked_until,
          idempotency.expires_at,
        ],
      );
    });
  }
  await database.session((sql) =>
    sql.query(
      `VACUUM (ANALYZE) ${[
        'runs',
        'lifecycle_records',
        'webhook_events',
        'timers',
        'idempotency_keys',
      ]
        .map((table) => `${schema}.${table}`)
        .join(', ')}`,
    ),
  );
  await database.session((sql) => sql.query('CHECKPOINT')).catch(() => undefined); // needs superuser or pg_checkpoint; without it, measure anyway
}
