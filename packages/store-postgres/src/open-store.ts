import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createMemoryStore, type StoreV1 } from '@programrun/engine';
import { createEmbeddedPostgresStore } from './create-embedded-postgres-store.js';
import { createPGliteStore } from './create-pglite-store.js';
import { createPostgresStore } from './create-postgres-store.js';

/**
 * The stores a host can select with `PROGRAMRUN_STORE`: `embedded` (a PostgreSQL server the
 * host runs in its data directory), `pglite` (PostgreSQL in WebAssembly, in the host's
 * process), `postgres` (a server at `DATABASE_URL`) and `memory`.
 */
export type StoreKind = 'memory' | 'embedded' | 'pglite' | 'postgres';

const STORE_KINDS: readonly StoreKind[] = ['memory', 'embedded', 'pglite', 'postgres'];

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** A store a host opened from its environment, and where it writes. */
export interface OpenedStore {
  readonly kind: StoreKind;
  readonly store: StoreV1;
  /**
   * False for the memory store: everything is gone when the process exits. True for the
   * others, which keep every acknowledged write through a restart or a SIGKILL; only
   * `embedded` and `postgres` (with the server's default `fsync` and `synchronous_commit`)
   * also keep it through a power loss.
   */
  readonly durable: boolean;
  /** The data directory (absolute; `embedded`, `pglite`), the PostgreSQL URL without its password, or null. */
  readonly location: string | null;
  close(): Promise<void>;
}

/** Defaults of {@link openStoreFromEnvironment} for variables that are not set. */
export interface StoreDefaults {
  /** @default 'memory' */
  readonly store?: StoreKind;
  /** Data directory (`embedded`, `pglite`) when `PROGRAMRUN_DATA_DIR` is unset. @default '.programrun/data' (from the working directory) */
  readonly dataDir?: string;
}

/** A store setting that cannot work; `message` is one line for the operator. */
export class StoreSelectionError extends Error {
  readonly code = 'invalid_store_configuration';
}

/** `postgres://user:***@host/db`: the URL to print, never its password. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

/** `PROGRAMRUN_POSTGRES_POOL_SIZE`, default 10. */
function poolSizeOf(environment: Readonly<Record<string, string | undefined>>): number {
  const poolSize = Number(environment.PROGRAMRUN_POSTGRES_POOL_SIZE ?? 10);
  if (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000) {
    throw new StoreSelectionError(
      `PROGRAMRUN_POSTGRES_POOL_SIZE must be a whole number from 1 to 1000, not "${environment.PROGRAMRUN_POSTGRES_POOL_SIZE}"`,
    );
  }
  return poolSize;
}

/** The embedded server in `dataDir`, unless the directory holds a PGlite store. */
async function openEmbedded(dataDir: string, maxConnections: number) {
  if ((await exists(join(dataDir, 'pglite'))) && !(await exists(join(dataDir, 'postgres')))) {
    throw new StoreSelectionError(
      `${dataDir} holds a PGlite store (pglite/), not embedded PostgreSQL: set PROGRAMRUN_STORE=pglite to keep using it, or PROGRAMRUN_DATA_DIR to another directory`,
    );
  }
  return createEmbeddedPostgresStore({ dataDir, maxConnections });
}

/**
 * Opens the store an environment selects: `PROGRAMRUN_STORE=memory | embedded | pglite |
 * postgres`, `PROGRAMRUN_DATA_DIR` for `embedded` and `pglite`, `DATABASE_URL` for
 * `postgres`, and `PROGRAMRUN_POSTGRES_POOL_SIZE` (default 10) for the pool of `embedded`
 * and `postgres`. Migrates durable stores before returning.
 *
 * @example
 * ```ts
 * const opened = await openStoreFromEnvironment(process.env, { store: 'embedded' });
 * console.log(`store: ${opened.kind} at ${opened.location}`);
 * ```
 */
export async function openStoreFromEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
  defaults: StoreDefaults = {},
): Promise<OpenedStore> {
  const kind = (environment.PROGRAMRUN_STORE || defaults.store || 'memory') as StoreKind;
  if (!STORE_KINDS.includes(kind)) {
    throw new StoreSelectionError(
      `PROGRAMRUN_STORE must be one of ${STORE_KINDS.join(', ')}, not "${kind}"`,
    );
  }
  if (kind === 'memory') {
    const store = createMemoryStore();
    return { kind, store, durable: false, location: null, close: () => store.close() };
  }
  if (kind === 'pglite' || kind === 'embedded') {
    const dataDir = resolve(
      environment.PROGRAMRUN_DATA_DIR || defaults.dataDir || '.programrun/data',
    );
    const store =
      kind === 'pglite'
        ? await createPGliteStore({ dataDir })
        : await openEmbedded(dataDir, poolSizeOf(environment));
    return { kind, store, durable: true, location: dataDir, close: () => store.close() };
  }
  const url = environment.DATABASE_URL;
  if (!url) {
    throw new StoreSelectionError(
      'PROGRAMRUN_STORE=postgres needs DATABASE_URL (postgres://user:password@host:5432/database)',
    );
  }
  const store = await createPostgresStore({
    connectionString: url,
    maxConnections: poolSizeOf(environment),
  });
  return {
    kind,
    store,
    durable: true,
    location: redactDatabaseUrl(url),
    close: () => store.close(),
  };
}
