// The store a test host opens: what a production host opens from its environment, plus
// PROGRAMRUN_POSTGRES_SCHEMA so each suite gets its own schema on the shared test server.
import { openStoreFromEnvironment, type OpenedStore } from '../../src/index.js';
import { createPostgresStore } from '../../src/index.js';

/** The environment variables a test host reads, beyond those of `openStoreFromEnvironment`. */
export interface HostStoreEnvironment {
  readonly [name: string]: string | undefined;
  /** A PostgreSQL schema instead of the default `programrun` (tests use a fresh one). */
  readonly PROGRAMRUN_POSTGRES_SCHEMA?: string | undefined;
}

/**
 * Opens the host's store: `openStoreFromEnvironment(environment)`, except that with
 * `PROGRAMRUN_STORE=postgres` and `PROGRAMRUN_POSTGRES_SCHEMA` the tables live in that
 * schema (migrated on open, like the default one).
 *
 * @example
 * ```ts
 * const opened = await openHostStore({ PROGRAMRUN_STORE: 'pglite', PROGRAMRUN_DATA_DIR: dir });
 * await opened.close();
 * ```
 */
export async function openHostStore(environment: HostStoreEnvironment): Promise<OpenedStore> {
  const schema = environment.PROGRAMRUN_POSTGRES_SCHEMA;
  if (environment.PROGRAMRUN_STORE !== 'postgres' || !schema) {
    return openStoreFromEnvironment(environment);
  }
  const url = environment.DATABASE_URL;
  if (!url) throw new Error('PROGRAMRUN_STORE=postgres needs DATABASE_URL');
  const store = await createPostgresStore({
    connectionString: url,
    schema,
    maxConnections: Number(environment.PROGRAMRUN_POSTGRES_POOL_SIZE ?? 10),
  });
  return { kind: 'postgres', store, durable: true, location: schema, close: () => store.close() };
}
