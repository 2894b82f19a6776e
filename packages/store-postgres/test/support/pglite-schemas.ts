// One in-memory PGlite database for a test file, and a fresh schema per store: opening
// PGlite per test would spend most of a suite starting WebAssembly.
import { afterAll, beforeAll } from 'vitest';
import type { StoreV1 } from '@programrun/engine';
import {
  createPGliteDatabase,
  createSqlStore,
  migrate,
  type SqlDatabase,
  type SqlExecutor,
} from '../../src/index.js';

/**
 * Registers the file's database (opened before its tests, closed after) and returns a
 * factory of stores, each on a new migrated schema that its `close` drops.
 * `wrap` may decorate each transaction's executor (e.g. to EXPLAIN every statement).
 *
 * @example
 * ```ts
 * const freshStore = usePGliteSchemas('contract');
 * defineStoreContract('pglite', freshStore);
 * ```
 */
export function usePGliteSchemas(
  prefix: string,
  wrap?: (sql: SqlExecutor) => Promise<SqlExecutor>,
): () => Promise<StoreV1> {
  let database: SqlDatabase;
  let schemas = 0;
  beforeAll(async () => {
    database = await createPGliteDatabase();
  });
  afterAll(() => database.close());
  return async () => {
    const schema = `${prefix}_${(schemas += 1)}`;
    await migrate(database, { schema });
    const store = createSqlStore(
      wrap
        ? {
            ...database,
            transaction: (work, options) =>
              database.transaction(async (sql) => work(await wrap(sql)), options),
          }
        : database,
      `"${schema}"`,
    );
    return {
      ...store,
      close: () =>
        database
          .session((sql) => sql.script(`DROP SCHEMA "${schema}" CASCADE`))
          .then(() => undefined),
    };
  };
}

/**
 * Runs work on a store from `freshStore`, closing the store after, whatever happens.
 *
 * @example
 * ```ts
 * const withFreshStore = closingAfter(usePGliteSchemas('round_trips'));
 * it('reads', () => withFreshStore(async (store) => { await store.transaction(read); }));
 * ```
 */
export function closingAfter(
  freshStore: () => Promise<StoreV1>,
): (work: (store: StoreV1) => Promise<void>) => Promise<void> {
  return async (work) => {
    const store = await freshStore();
    try {
      await work(store);
    } finally {
      await store.close();
    }
  };
}
