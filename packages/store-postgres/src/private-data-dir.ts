// A store's data directory holds the database files and, for the reference server, its API
// key and evidence signing key: only the user the host runs as may read it.
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { StoreError } from '@programrun/engine';

/**
 * Permission bits that let other users in. Group read/write and anything for others are
 * refused; a group search bit alone (0710) is what a host running as root grants the
 * `postgres` group so that its server reaches its own subdirectory.
 */
const OPEN_TO_OTHERS = 0o067;

/**
 * Creates `directory` with mode 0700 when missing. Missing parents get the usual mode
 * (umask): a parent made 0700 would shut out the user an embedded server runs as.
 */
export async function makePrivateDir(directory: string): Promise<void> {
  await mkdir(dirname(resolve(directory)), { recursive: true });
  await mkdir(directory, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}

/**
 * Creates `dataDir` (mode 0700) when missing, and refuses one that other users can read:
 * `StoreError` `store_unavailable` with a one-line reason and the `chmod` that fixes it.
 * Nothing is changed on a directory that exists (it may be shared on purpose); the operator
 * decides. Mode bits are not checked on Windows.
 */
export async function preparePrivateDataDir(dataDir: string): Promise<void> {
  await makePrivateDir(dataDir);
  const info = await stat(dataDir);
  if (!info.isDirectory()) {
    throw new StoreError('store_unavailable', `data directory ${dataDir} is not a directory`);
  }
  if (process.platform === 'win32') return;
  const mode = info.mode & 0o777;
  if ((mode & OPEN_TO_OTHERS) !== 0) {
    throw new StoreError(
      'store_unavailable',
      `data directory ${dataDir} is open to other users (mode ${mode.toString(8).padStart(4, '0')}); it holds the database and the server's keys: run chmod 700 ${dataDir}`,
    );
  }
}
