// As root, the server runs as another user, who must be able to enter every directory above
// its data directory and its binaries: a repository under /root (mode 0700) is out of its
// reach. Checked up front, so the refusal says which directory and what to do.
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StoreError } from '@programrun/engine';
import type { ServerAccount } from './server-account.js';

/** Whether `account` may search (enter) a directory with these owner, group and mode. */
function mayEnter(info: { uid: number; gid: number; mode: number }, account: ServerAccount) {
  if (info.uid === account.uid) return (info.mode & 0o100) !== 0;
  if (info.gid === account.gid) return (info.mode & 0o010) !== 0;
  return (info.mode & 0o001) !== 0;
}

/** The first directory from `/` down to `directory` (excluded) that `account` cannot enter. */
async function firstBarrier(directory: string, account: ServerAccount): Promise<string | null> {
  const ancestors: string[] = [];
  for (let current = dirname(directory); ; current = dirname(current)) {
    ancestors.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const ancestor of ancestors) {
    const info = await stat(ancestor).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    // Not made yet: the store makes missing parents with the usual mode.
    if (info === null) return null;
    if (!mayEnter(info, account)) return ancestor;
  }
  return null;
}

/**
 * Refuses (`store_unavailable`, one line) when `account` cannot reach the data directory or
 * the directory of the binaries.
 */
export async function checkServerReach(
  account: ServerAccount,
  places: { readonly dataDir: string; readonly binaries: string },
): Promise<void> {
  const dataBarrier = await firstBarrier(places.dataDir, account);
  if (dataBarrier !== null) {
    throw new StoreError(
      'store_unavailable',
      `embedded PostgreSQL runs as user ${account.user} (PostgreSQL does not run as root), who cannot enter ${dataBarrier}: set PROGRAMRUN_DATA_DIR to a directory outside it, or run as a user other than root`,
    );
  }
  const binaryBarrier = await firstBarrier(places.binaries, account);
  if (binaryBarrier !== null) {
    throw new StoreError(
      'store_unavailable',
      `embedded PostgreSQL runs as user ${account.user} (PostgreSQL does not run as root), who cannot enter ${binaryBarrier} to run ${places.binaries}: install outside it, or run as a user other than root`,
    );
  }
}
