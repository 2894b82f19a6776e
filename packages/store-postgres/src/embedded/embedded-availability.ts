import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { findPostgresBinaries } from './postgres-binaries.js';
import { serverAccount } from './server-account.js';
import { checkServerReach } from './server-reach.js';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Why embedded PostgreSQL cannot run in `dataDir` on this machine, in one line, or null
 * when it can: the directory holds a PGlite store (`pglite/`, the reference server's
 * default before embedded PostgreSQL), the platform has no binaries (Windows, or none
 * installed), or, as root, the user `postgres` the server must run as cannot be created or
 * cannot reach the directory or the binaries. For a host that picks a store only when none
 * was asked for; a store that was asked for refuses with the same reason.
 *
 * @example
 * ```ts
 * const reason = await embeddedPostgresUnavailable('.programrun/data');
 * const store = reason === null ? 'embedded' : 'pglite';
 * ```
 */
export async function embeddedPostgresUnavailable(dataDir: string): Promise<string | null> {
  const directory = resolve(dataDir);
  if ((await exists(join(directory, 'pglite'))) && !(await exists(join(directory, 'postgres')))) {
    return `${directory} holds a PGlite store (pglite/)`;
  }
  if (process.platform === 'win32') return 'embedded PostgreSQL does not run on Windows';
  try {
    const binaries = await findPostgresBinaries();
    const account = await serverAccount();
    if (account)
      await checkServerReach(account, { dataDir: directory, binaries: binaries.postgres });
    return null;
  } catch (error) {
    return reasonOf(error);
  }
}
