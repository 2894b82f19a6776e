// Where a suite's host processes keep their data: a fresh PGlite or embedded PostgreSQL
// directory or a fresh schema on the PostgreSQL test server, the host environment that selects it, and a way
// to open the same store in the test process once the hosts have stopped.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createEmbeddedPostgresStore,
  createPGliteStore,
  createPostgresStore,
  type SqlStore,
} from '../../src/index.js';
import { stopLeftoverServer } from './embedded-leftovers.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './test-database.js';

/** The durable stores a host can run on. */
export type DurableStoreKind = 'embedded' | 'pglite' | 'postgres';

/** A fresh store location for host processes. */
export interface DurableStoreSetup {
  readonly kind: DurableStoreKind;
  /** The variables that make a host (host.ts) open this store. */
  readonly environment: Readonly<Record<string, string>>;
  /** Opens the store in this process (only once no host holds its data directory). */
  open(): Promise<SqlStore>;
  /** Removes the directory (stopping a server a killed host left running) or drops the schema. */
  dispose(): Promise<void>;
}

/**
 * A fresh data directory (PGlite, embedded PostgreSQL) or a fresh schema on the PostgreSQL
 * test server.
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
  if (kind === 'embedded') {
    const dataDir = await mkdtemp(join(tmpdir(), 'programrun-durability-'));
    return {
      kind,
      environment: {
        PROGRAMRUN_STORE: 'embedded',
        PROGRAMRUN_DATA_DIR: dataDir,
        PROGRAMRUN_POSTGRES_POOL_SIZE: '6',
      },
      open: () => createEmbeddedPostgresStore({ dataDir }),
      async dispose() {
        await stopLeftoverServer(dataDir);
        await rm(dataDir, { recursive: true, force: true });
      },
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
