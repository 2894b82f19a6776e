import {
  StoreError,
  type LifecycleRecord,
  type Page,
  type RunQuery,
  type Scope,
  type StoredRun,
  type StoreTransactionV1,
  type VersionStatusCount,
} from '@programrun/engine';
import { PREPARED_READ, type SqlExecutor } from '../sql/sql-database.js';
import { RUN_FILTER_COLUMNS, runFilterValues } from './run-filter-columns.js';
import { runListStatement } from './run-list-query.js';
import { withTraceContext } from './trace-context-column.js';

type RunTables = Pick<
  StoreTransactionV1,
  | 'getRun'
  | 'findRunByIdempotencyKey'
  | 'insertRun'
  | 'updateRun'
  | 'listRuns'
  | 'countRunsByVersion'
  | 'appendRecords'
  | 'listRecords'
>;

export const RUN_COLUMNS =
  'id, account, environment, version, scenario_id, status, created_at, idempotency_key, snapshot, last_sequence, record, trace_context';

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

export const runParams = (run: StoredRun): unknown[] => [
  run.id,
  run.account,
  run.environment,
  run.version,
  run.scenario_id,
  run.status,
  run.created_at,
  run.idempotency_key,
  json(run.snapshot),
  run.last_sequence,
  json(run.record),
];

/** The run's filter column values, in `RUN_FILTER_COLUMNS` order. */
const filterParams = (run: StoredRun): unknown[] => {
  const { stage, awaiting_kind, session_id, source_path } = runFilterValues(run.record);
  return [stage, awaiting_kind, session_id, source_path];
};

/**
 * Runs and their lifecycle records. Runs change only by compare-and-swap on `version`;
 * lists walk the `(created_at, id)` indexes newest first with keyset cursors. A run's
 * `trace_context` is written with the run and never changes; the columns the list filters
 * read of its record (stage, awaited kind, session id, source path) are written with it,
 * taken from `record` (`runFilterValues`).
 */
export function runTables(sql: SqlExecutor, schema: string): RunTables {
  return {
    async getRun(scope: Scope, id: string) {
      const { rows } = await sql.query<StoredRun>(
        `SELECT ${RUN_COLUMNS} FROM ${schema}.runs WHERE id = $1 AND account = $2 AND environment = $3`,
        [id, scope.account, scope.environment],
        PREPARED_READ,
      );
      return withTraceContext(rows)[0];
    },

    async findRunByIdempotencyKey(scope: Scope, key: string) {
      const { rows } = await sql.query<StoredRun>(
        `SELECT ${RUN_COLUMNS} FROM ${schema}.runs
         WHERE account = $1 AND environment = $2 AND idempotency_key = $3`,
        [scope.account, scope.environment, key],
        PREPARED_READ,
      );
      return withTraceContext(rows)[0];
    },

    async insertRun(run: StoredRun) {
      await sql.query(
        `INSERT INTO ${schema}.runs (${RUN_COLUMNS}, ${RUN_FILTER_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        [...runParams(run), run.trace_context ?? null, ...filterParams(run)],
      );
    },

    async updateRun(run: StoredRun, expectedVersion: number) {
      // Compare-and-swap: a writer that read an older version changes nothing. Under READ
      // COMMITTED a concurrent writer waits for the row lock, then re-checks the version.
      const { rowCount } = await sql.query(
        `UPDATE ${schema}.runs SET version = $4, scenario_id = $5, status = $6, created_at = $7,
           idempotency_key = $8, snapshot = $9, last_sequence = $10, record = $11,
           (${RUN_FILTER_COLUMNS}) = ($13, $14, $15, $16)
         WHERE id = $1 AND account = $2 AND environment = $3 AND version = $12`,
        [...runParams(run), expectedVersion, ...filterParams(run)],
      );
      if (rowCount !== 1) {
        throw new StoreError(
          'version_conflict',
          `run ${run.id} is not at version ${expectedVersion}`,
        );
      }
    },

    async listRuns(scope: Scope, query: RunQuery): Promise<Page<StoredRun>> {
      const { text, params } = runListStatement(schema, RUN_COLUMNS, scope, query);
      const { rows } = await sql.query<StoredRun>(text, params);
      return {
        data: withTraceContext(rows.slice(0, query.limit)),
        has_more: rows.length > query.limit,
      };
    },

    async countRunsByVersion(scope: Scope, name: string): Promise<VersionStatusCount[]> {
      // The range (every id `name@v…` sorts between `name@v` and `name@w`) keeps the scan
      // on runs_by_scenario; the prefix test is exact whatever the collation.
      const { rows } = await sql.query<VersionStatusCount>(
        `SELECT scenario_id, status, count(*)::int AS count FROM ${schema}.runs
         WHERE account = $1 AND environment = $2
           AND scenario_id >= $3 AND scenario_id < $4 AND left(scenario_id, $5) = $6
         GROUP BY scenario_id, status`,
        [scope.account, scope.environment, `${name}@v`, `${name}@w`, name.length + 1, `${name}@`],
        PREPARED_READ,
      );
      return rows;
    },

    async appendRecords(scope: Scope, records: readonly LifecycleRecord[]) {
      if (records.length === 0) return;
      await sql.query(
        `INSERT INTO ${schema}.lifecycle_records (run_id, sequence, account, environment, record)
         SELECT r.run_id, r.sequence, $1, $2, r.record
         FROM json_to_recordset($3::json) AS r(run_id text, sequence integer, record json)`,
        [
          scope.account,
          scope.environment,
          JSON.stringify(
            records.map((record) => ({
              run_id: record.run_id,
              sequence: record.sequence,
              record,
            })),
          ),
        ],
      );
    },

    async listRecords(scope: Scope, runId: string, options = {}) {
      const { rows } = await sql.query<{ record: LifecycleRecord }>(
        `SELECT record FROM ${schema}.lifecycle_records
         WHERE run_id = $1 AND account = $2 AND environment = $3 AND sequence > $4
         ORDER BY sequence LIMIT $5`,
        [
          runId,
          scope.account,
          scope.environment,
          options.afterSequence ?? 0,
          options.limit ?? null,
        ],
      );
      return rows.map((row) => row.record);
    },
  };
}
