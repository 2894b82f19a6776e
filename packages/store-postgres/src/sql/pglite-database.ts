import { PGlite } from '@electric-sql/pglite';
import { lazyTransaction, type LazyTransaction } from './lazy-transaction.js';
import type { QueryOptions, SqlDatabase, SqlExecutor } from './sql-database.js';
import { serialQueue } from './serial-queue.js';
import { toStoreError } from './sql-errors.js';

/** Options of {@link createPGliteDatabase}. */
export interface PGliteDatabaseOptions {
  /** Directory of the database files; created when missing. Omit for a database in memory. */
  readonly dataDir?: string;
}

/** Statements on the one connection, in `transaction` when given (none in a session). */
const executor = (
  db: Pick<PGlite, 'query' | 'exec'>,
  transaction: LazyTransaction | null,
): SqlExecutor => {
  const within = <T>(options: QueryOptions, statement: () => Promise<T>) =>
    transaction ? transaction.run(options, statement) : statement();
  return {
    query: (text, params = [], options = {}) =>
      within(options, async () => {
        const result = await db.query(text, params as unknown[]);
        return { rows: result.rows as never[], rowCount: result.affectedRows ?? 0 };
      }),
    script: (text) =>
      within({}, async () => {
        await db.exec(text);
      }),
    begun: () => transaction?.begun ?? false,
    takeWrite: (work) =>
      transaction?.takeWrite()
        ? work(async (text, params) => {
            const result = await db.query(text, params as unknown[]);
            return { rows: result.rows as never[], rowCount: result.affectedRows ?? 0 };
          })
        : undefined,
  };
};

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
    transaction(work, options = {}) {
      return serial(async () => {
        const transaction = lazyTransaction(options.lazy ?? false, async () => {
          await db.exec('BEGIN');
        });
        try {
          const value = await work(executor(db, transaction));
          if (transaction.begun) await db.exec('COMMIT');
          return value;
        } catch (error) {
          if (transaction.begun) await db.exec('ROLLBACK').catch(() => undefined);
          throw toStoreError(error);
        }
      });
    },
    session(work) {
      return serial(async () => {
        try {
          return await work(executor(db, null));
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
