import { createPGliteStore, createPostgresStore, type SqlStore } from '@programrun/store-postgres';

/** The store a benchmark process opens, from its environment. */
export interface BenchStoreEnvironment {
  /** `pglite` or `postgres`. */
  readonly STORE?: string;
  /** PGlite data directory. */
  readonly DATA_DIR?: string;
  readonly DATABASE_URL?: string;
  /** PostgreSQL schema. */
  readonly SCHEMA?: string;
  /** Connections of the PostgreSQL pool. */
  readonly POOL?: string;
}

/**
 * Opens (and migrates) the store a benchmark child was started for: `STORE=pglite` with
 * `DATA_DIR`, or `STORE=postgres` with `DATABASE_URL`, `SCHEMA` and `POOL`.
 *
 * @example
 * ```ts
 * const store = await openBenchStore(process.env);
 * ```
 */
export async function openBenchStore(environment: BenchStoreEnvironment): Promise<SqlStore> {
  if (environment.STORE === 'pglite') {
    if (!environment.DATA_DIR) throw new Error('STORE=pglite needs DATA_DIR');
    return createPGliteStore({ dataDir: environment.DATA_DIR });
  }
  if (environment.STORE === 'postgres') {
    if (!environment.DATABASE_URL || !environment.SCHEMA) {
      throw new Error('STORE=postgres needs DATABASE_URL and SCHEMA');
    }
    return createPostgresStore({
      connectionString: environment.DATABASE_URL,
      schema: environment.SCHEMA,
      maxConnections: Number(environment.POOL ?? 8),
    });
  }
  throw new Error(`STORE must be pglite or postgres, not ${String(environment.STORE)}`);
}
