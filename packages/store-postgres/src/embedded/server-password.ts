// The password of the server's `postgres` role: made once, kept in the data directory
// (0600), read at each start. The server listens on a socket in the 0700 data directory or
// on 127.0.0.1 only; the password keeps other local users out of the TCP case too.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { StoreError } from '@programrun/engine';

/** The kept password, or null when none was made yet. */
export async function readServerPassword(file: string): Promise<string | null> {
  try {
    const password = (await readFile(file, 'utf8')).trim();
    return password === '' ? null : password;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Makes a new password and keeps it in `file` (mode 0600, flushed to disk). */
export async function newServerPassword(file: string): Promise<string> {
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600, flag: 'w', flush: true });
  return password;
}

/** The kept password of an existing cluster; `store_unavailable` when it is missing. */
export async function existingServerPassword(file: string): Promise<string> {
  const password = await readServerPassword(file);
  if (password === null) {
    throw new StoreError(
      'store_unavailable',
      `${file} is missing: the embedded PostgreSQL in this data directory cannot be reached without it (restore it, or start over with an empty directory)`,
    );
  }
  return password;
}
