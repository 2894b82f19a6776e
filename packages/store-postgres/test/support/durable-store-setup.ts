// Where a suite's host processes keep their data: a fresh PGlite directory or a fresh
// schema on the PostgreSQL test server, the host environment that selects it, and a way
// to open the same store in the test process once the hosts have stopped.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPGliteStore, createPostgresStore, type SqlStore } from '../../src/index.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './test-database.js';

/** The durable stores a host can run on. */
export type DurableStoreKind = 'pglite' | 'postgres';

/** A fresh store location for host processes. */
export interface DurableStoreSetup {
  readonly kind: DurableStoreKind;
  /** The variables that make a host (host.ts) open this store. */
  readonly environment: Readonly<Record<string, string>>;
  /** Opens the store in this process (only once no host holds a PGlite directory). */
  open(): Promise<SqlStore>;
  /** Removes the directory or drops the schema. */
  dispose(): Promise<void>;
}

/**
 * A fresh PGlite data directory or a fresh schema on the PostgreSQL test server.
 *
 * @example
 * ```ts
 * const setup = await durableStoreSetup('pglite');
 * const host = await startHost({ ...setup.environment, PROGRAMRUN_TEST_KEY: key });
 * ```
 */
export async function durableStoreSetup(kind: DurableStoreKind): Promise<DurableStoreSetup> {
  if (kind === 'pglite') {
    const dataDir = await mkdtemp(join(tmpdir(), 'programrun-durability-'));
    return {
      kind,
      environment: { PROGRAMRUN_STORE: 'pglite', PROGRAMRUN_DATA_DIR: dataDir },
      open: () => createPGliteStore({ dataDir }),
      dispose: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = freshSchema();
  return {
    kind,
    environment: {
      PROGRAMRUN_STORE: 'postgres',
      DATABASE_URL: TEST_DATABASE_URL,
      PROGRAMRUN_POSTGRES_SCHEMA: schema,
      PROGRAMRUN_POSTGRES_POOL_SIZE: '6',
    },
    open: () => createPostgresStore({ connectionString: TEST_DATABASE_URL, schema }),
    dispose: () => dropSchema(schema),
  };
}
