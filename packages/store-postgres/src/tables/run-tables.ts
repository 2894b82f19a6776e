import {
  StoreError,
  type LifecycleRecord,
  type Page,
  type RunQuery,
  type Scope,
  type StoredRun,
  type StoreTransactionV1,
} from '@programrun/engine';
import type { SqlExecutor } from '../sql/sql-database.js';
import { withTraceContext } from './trace-context-column.js';

type RunTables = Pick<
  StoreTransactionV1,
  | 'getRun'
  | 'findRunByIdempotencyKey'
  | 'insertRun'
  | 'updateRun'
  | 'listRuns'
  | 'appendRecords'
  | 'listRecords'
>;

const RUN_COLUMNS =
  'id, account, environment, version, scenario_id, status, created_at, idempotency_key, snapshot, last_sequence, record, trace_context';

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

const runParams = (run: StoredRun): unknown[] => [
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

/**
 * Runs and their lifecycle records. Runs change only by compare-and-swap on `version`;
 * lists walk the `(created_at, id)` indexes newest first with keyset cursors. A run's
 * `trace_context` is written with the run and never changes.
 */
export function runTables(sql: SqlExecutor, schema: string): RunTables {
  return {
    async getRun(scope: Scope, id: string) {
      const { rows } = await sql.query<StoredRun>(
        `SELECT ${RUN_COLUMNS} FROM ${schema}.runs WHERE id = $1 AND account = $2 AND environment = $3`,
        [id, scope.account, scope.environment],
      );
      return withTraceContext(rows)[0];
    },

    async findRunByIdempotencyKey(scope: Scope, key: string) {
      const { rows } = await sql.query<StoredRun>(
        `SELECT ${RUN_COLUMNS} FROM ${schema}.runs
         WHERE account = $1 AND environment = $2 AND idempotency_key = $3`,
        [scope.account, scope.environment, key],
      );
      return withTraceContext(rows)[0];
    },

    async insertRun(run: StoredRun) {
      await sql.query(
        `INSERT INTO ${schema}.runs (${RUN_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [...runParams(run), run.trace_context ?? null],
      );
    },

    async updateRun(run: StoredRun, expectedVersion: number) {
      // Compare-and-swap: a writer that read an older version changes nothing. Under READ
      // COMMITTED a concurrent writer waits for the row lock, then re-checks the version.
      const { rowCount } = await sql.query(
        `UPDATE ${schema}.runs SET version = $4, scenario_id = $5, status = $6, created_at = $7,
           idempotency_key = $8, snapshot = $9, last_sequence = $10, record = $11
         WHERE id = $1 AND account = $2 AND environment = $3 AND version = $12`,
        [...runParams(run), expectedVersion],
      );
      if (rowCount !== 1) {
        throw new StoreError(
          'version_conflict',
          `run ${run.id} is not at version ${expectedVersion}`,
        );
      }
    },

    async listRuns(scope: Scope, query: RunQuery): Promise<Page<StoredRun>> {
      const params: unknown[] = [scope.account, scope.environment];
      const where = ['account = $1', 'environment = $2'];
      const filter = (clause: (placeholder: string) => string, value: unknown) => {
        params.push(value);
        where.push(clause(`$${params.length}`));
      };
      if (query.scenario_id !== undefined) filter((p) => `scenario_id = ${p}`, query.scenario_id);
      if (query.status !== undefined) filter((p) => `status = ${p}`, query.status);
      if (query.created_gte !== undefined) filter((p) => `created_at >= ${p}`, query.created_gte);
      if (query.created_lt !== undefined) filter((p) => `created_at < ${p}`, query.created_lt);
      if (query.starting_after !== undefined) {
        // The cursor must itself be in the filtered list; otherwise the page is empty.
        params.push(query.starting_after);
        const cursorWhere = [...where, `id = $${params.length}`].join(' AND ');
        where.push(
          `(created_at, id) < (SELECT created_at, id FROM ${schema}.runs WHERE ${cursorWhere})`,
        );
      }
      params.push(query.limit + 1);
      const { rows } = await sql.query<StoredRun>(
        `SELECT ${RUN_COLUMNS} FROM ${schema}.runs WHERE ${where.join(' AND ')}
         ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
        params,
      );
      return {
        data: withTraceContext(rows.slice(0, query.limit)),
        has_more: rows.length > query.limit,
      };
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
