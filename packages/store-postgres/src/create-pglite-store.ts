import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrations/migrate.js';
import { preparePrivateDataDir } from './private-data-dir.js';
import { releaseLeftLeases } from './release-left-leases.js';
import type { SqlDatabase } from './sql/sql-database.js';
import { createPGliteDatabase } from './sql/pglite-database.js';
import { quoteSchema } from './sql/schema-name.js';
import { createSqlStore, type SqlStore } from './sql-store.js';

/** Options of {@link createPGliteStore}. */
export interface PGliteStoreOptions {
  /**
   * Directory the store owns (created 0700 when missing; refused when other users can
   * read it): the database files in `pglite/` and a `programrun.lock` so only one process
   * opens them. Omit for a database in memory.
   */
  readonly dataDir?: string;
  /** PostgreSQL schema of the tables. @default 'programrun' */
  readonly schema?: string;
}

/**
 * PostgreSQL compiled to WebAssembly, in a data directory of this process: no server, the
 * same SQL and migrations as {@link createPostgresStore}, transactions one at a time. Every
 * acknowledged write survives a restart or a SIGKILL of the process, but not an operating
 * system crash or a power loss: PGlite never flushes its files to disk (it runs with
 * `fsync` off, and its Node file system ignores flushes), so what the kernel had not yet
 * written back is lost, and the files can be left inconsistent. For durability on power
 * loss use {@link createEmbeddedPostgresStore}.
 * One process per data directory.
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
  await preparePrivateDataDir(options.dataDir);
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
    await releaseLeftLeases(database, quoted);
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
