// The reference server's store: the one PROGRAMRUN_STORE names, else embedded PostgreSQL in
// the data directory, unless it cannot run there (a PGlite directory from before it was the
// default, Windows, or a root host whose `postgres` user cannot reach the files): then
// PGlite, with a notice saying why and what it does not keep.
import { resolve } from 'node:path';
import { embeddedPostgresUnavailable, type OpenedStore } from '@programrun/store-postgres';
import { openStoreFromEnvironment } from '../store/open-store.js';

/** The opened store, and a one-line notice when the default could not be used. */
export interface ReferenceStore {
  readonly opened: OpenedStore;
  readonly notice: string | null;
}

/** Opens the reference server's store (see the file comment). */
export async function openReferenceStore(
  environment: Readonly<Record<string, string | undefined>>,
): Promise<ReferenceStore> {
  if (environment.PROGRAMRUN_STORE) {
    return { opened: await openStoreFromEnvironment(environment), notice: null };
  }
  const dataDir = resolve(environment.PROGRAMRUN_DATA_DIR || '.programrun/data');
  const reason = await embeddedPostgresUnavailable(dataDir);
  if (reason === null) {
    return {
      opened: await openStoreFromEnvironment(environment, { store: 'embedded' }),
      notice: null,
    };
  }
  return {
    opened: await openStoreFromEnvironment(environment, { store: 'pglite' }),
    notice: `not on embedded PostgreSQL: ${reason}. PGlite does not survive a power loss; set PROGRAMRUN_STORE to choose a store`,
  };
}
