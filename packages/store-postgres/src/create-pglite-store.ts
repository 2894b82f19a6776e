import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrations/migrate.js';
import type { SqlDatabase } from './sql/sql-database.js';
import { createPGliteDatabase } from './sql/pglite-database.js';
import { quoteSchema } from './sql/schema-name.js';
import { createSqlStore, type SqlStore } from './sql-store.js';

/** Options of {@link createPGliteStore}. */
export interface PGliteStoreOptions {
  /**
   * Directory the store owns (created when missing): the database files in `pglite/` and
   * a `programrun.lock` so only one process opens them. Omit for a database in memory.
   */
  readonly dataDir?: string;
  /** PostgreSQL schema of the tables. @default 'programrun' */
  readonly schema?: string;
}

/**
 * The embedded store: PostgreSQL compiled to WebAssembly, in a data directory. Zero setup,
 * the same SQL and migrations as {@link createPostgresStore}; every acknowledged write
 * survives a restart or a SIGKILL. One process per data directory.
 *
 * @example
 * ```ts
 * const store = await createPGliteStore({ dataDir: '.programrun/data' });
 * ```
 */
export async function createPGliteStore(options: PGliteStoreOptions = {}): Promise<SqlStore> {
  const schema = options.schema ?? 'programrun';
  const quoted = quoteSchema(schema);
  if (options.dataDir === undefined) {
    const database = await createPGliteDatabase();
    await migrate(database, { schema });
    return createSqlStore(database, quoted);
  }
  const lock = await lockDataDir(options.dataDir);
  let database: SqlDatabase;
  try {
    database = await createPGliteDatabase({ dataDir: join(options.dataDir, 'pglite') });
  } catch (error) {
    await lock.release();
    throw error;
  }
  try {
    await migrate(database, { schema });
    // The lock proves no other process uses these files: leases still held are from this
    // host's previous life (killed mid-work), so its timers and deliveries are free now
    // rather than when those leases would have ended.
    await database.transaction(async (sql) => {
      await sql.query(
        `UPDATE ${quoted}.timers SET lease_until = NULL WHERE lease_until IS NOT NULL`,
      );
      await sql.query(
        `UPDATE ${quoted}.webhook_deliveries SET lease_until = NULL
         WHERE status = 'pending' AND lease_until IS NOT NULL`,
      );
    });
  } catch (error) {
    await database.close();
    await lock.release();
    throw error;
  }
  const store = createSqlStore(
    {
      ...database,
      async close() {
        await database.close();
        await lock.release();
      },
    },
    quoted,
  );
  return store;
}
