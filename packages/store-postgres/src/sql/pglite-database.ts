import { PGlite } from '@electric-sql/pglite';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';
import { serialQueue } from './serial-queue.js';
import { toStoreError } from './sql-errors.js';

/** Options of {@link createPGliteDatabase}. */
export interface PGliteDatabaseOptions {
  /** Directory of the database files; created when missing. Omit for a database in memory. */
  readonly dataDir?: string;
}

const executor = (db: Pick<PGlite, 'query' | 'exec'>): SqlExecutor => ({
  async query(text, params = []) {
    const result = await db.query(text, params as unknown[]);
    return { rows: result.rows as never[], rowCount: result.affectedRows ?? 0 };
  },
  async script(text) {
    await db.exec(text);
  },
});

/**
 * Embedded PostgreSQL (PGlite, WebAssembly) in a data directory: zero setup, persistent,
 * one connection, so transactions run one at a time. Only one process may open a data
 * directory at a time.
 *
 * @example
 * ```ts
 * const database = await createPGliteDatabase({ dataDir: './.programrun/data' });
 * ```
 */
export async function createPGliteDatabase(
  options: PGliteDatabaseOptions = {},
): Promise<SqlDatabase> {
  let db: PGlite;
  try {
    db = await PGlite.create(options.dataDir === undefined ? {} : { dataDir: options.dataDir });
  } catch (error) {
    throw toStoreError(error, `cannot open PGlite data directory ${options.dataDir ?? '(memory)'}`);
  }
  // PGlite has one connection: a session is the queue of statements between transactions.
  const serial = serialQueue();
  return {
    kind: 'pglite',
    transaction(work) {
      return serial(async () => {
        try {
          return await db.transaction((tx) => work(executor(tx)));
        } catch (error) {
          throw toStoreError(error);
        }
      });
    },
    session(work) {
      return serial(async () => {
        try {
          return await work(executor(db));
        } catch (error) {
          throw toStoreError(error);
        }
      });
    },
    async close() {
      await serial(() => db.close());
    },
  };
}
