import type { StoreHealth } from '@programrun/engine';
import { SCHEMA_VERSION } from './migrations/migrations.js';
import type { SqlDatabase } from './sql/sql-database.js';

/**
 * The SQL store's `health()`: on one connection outside any transaction, the schema
 * version its migration history records (0 before any migration) and the one this
 * package reads and writes. A database that cannot be reached rejects with
 * `store_unavailable`, like any other statement.
 */
export function sqlStoreHealth(
  database: SqlDatabase,
  schema: string,
  expectedVersion: number = SCHEMA_VERSION,
): () => Promise<StoreHealth> {
  const history = `${schema}.schema_migrations`;
  return () =>
    database.session(async (sql) => {
      const { rows: present } = await sql.query<{ present: boolean }>(
        'SELECT to_regclass($1) IS NOT NULL AS present',
        [history],
      );
      if (!present[0]?.present) return { schemaVersion: 0, expectedVersion };
      const { rows } = await sql.query<{ version: number }>(
        `SELECT coalesce(max(version), 0)::integer AS version FROM ${history}`,
      );
      return { schemaVersion: rows[0]?.version ?? 0, expectedVersion };
    });
}
