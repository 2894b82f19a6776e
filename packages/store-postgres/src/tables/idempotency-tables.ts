import type { IdempotencyRecord, Scope, StoreTransactionV1 } from '@programrun/engine';
import { PREPARED, type SqlExecutor } from '../sql/sql-database.js';

type IdempotencyTables = Pick<
  StoreTransactionV1,
  | 'lockIdempotencyRecord'
  | 'putIdempotencyRecord'
  | 'deleteIdempotencyRecord'
  | 'purgeIdempotencyRecords'
>;

const COLUMNS =
  'account, environment, key, fingerprint, state, response, locked_until, created_at, expires_at';

/**
 * `Idempotency-Key` records. Reading one takes a transaction-scoped advisory lock on
 * (scope, key): two hosts receiving the same key at once take turns, so the second sees
 * the first one's claim instead of both claiming a key that did not exist yet.
 */
export function idempotencyTables(sql: SqlExecutor, schema: string): IdempotencyTables {
  return {
    async lockIdempotencyRecord(scope: Scope, key: string) {
      await sql.query(
        'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
        [`programrun:idempotency:${scope.account}:${scope.environment}:${key}`],
        PREPARED,
      );
      const { rows } = await sql.query<IdempotencyRecord>(
        `SELECT ${COLUMNS} FROM ${schema}.idempotency_keys
         WHERE account = $1 AND environment = $2 AND key = $3`,
        [scope.account, scope.environment, key],
      );
      return rows[0];
    },

    async putIdempotencyRecord(record: IdempotencyRecord) {
      await sql.query(
        `INSERT INTO ${schema}.idempotency_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (account, environment, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
           state = EXCLUDED.state, response = EXCLUDED.response,
           locked_until = EXCLUDED.locked_until, created_at = EXCLUDED.created_at,
           expires_at = EXCLUDED.expires_at`,
        [
          record.account,
          record.environment,
          record.key,
          record.fingerprint,
          record.state,
          record.response === null ? null : JSON.stringify(record.response),
          record.locked_until,
          record.created_at,
          record.expires_at,
        ],
        PREPARED,
      );
    },

    async deleteIdempotencyRecord(scope: Scope, key: string) {
      await sql.query(
        `DELETE FROM ${schema}.idempotency_keys WHERE account = $1 AND environment = $2 AND key = $3`,
        [scope.account, scope.environment, key],
      );
    },

    async purgeIdempotencyRecords(now: string) {
      const { rowCount } = await sql.query(
        `DELETE FROM ${schema}.idempotency_keys WHERE expires_at <= $1`,
        [now],
      );
      return rowCount;
    },
  };
}
