import { constants } from 'node:fs';
import { copyFile, link, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreError } from '@programrun/engine';
import { makePrivateDir } from './private-data-dir.js';
import { isProcessRunning, processStartToken } from './processes/process-liveness.js';

/** A held data-directory lock. */
export interface DataDirLock {
  release(): Promise<void>;
}

/** Lock files this process holds (a second open here would corrupt the files too). */
const heldHere = new Set<string>();

/** The holder a lock file names: its pid, and when it started (where that can be read). */
function parseHolder(text: string): { pid: number; started: string | null } {
  const [pid = '', started = ''] = text.split('\n');
  return { pid: Number.parseInt(pid, 10), started: started.trim() || null };
}

/**
 * Whether the holder a lock file names still runs. A killed holder that its parent has not
 * reaped yet (a zombie) does not; nor does a process that reuses a dead holder's id (after a
 * reboot: it started at another time).
 */
function holderRuns(holder: { pid: number; started: string | null }): boolean {
  if (!isProcessRunning(holder.pid)) return false;
  const started = processStartToken(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

/**
 * Takes `<dataDir>/programrun.lock` (our process id) so that a second process never opens
 * the same files: two writers would corrupt them. A lock left by a process that died
 * (SIGKILL, power loss) is taken over at once, even while the dead holder is a zombie its
 * parent has not reaped yet, and even when a new process got the dead holder's id.
 *
 * @example
 * ```ts
 * const lock = await lockDataDir('.programrun/data');
 * await lock.release();
 * ```
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await makePrivateDir(dataDir);
  const path = join(dataDir, 'programrun.lock');
  if (heldHere.has(path)) {
    throw new StoreError(
      'store_unavailable',
      `data directory ${dataDir} is already open in this process; share one store`,
    );
  }
  // The lock appears whole (link is atomic and fails when the file exists), so another
  // process never reads a lock file that is still empty.
  const draft = `${path}.${process.pid}`;
  await writeFile(draft, `${process.pid}\n${processStartToken(process.pid) ?? ''}\n`, {
    mode: 0o600,
  });
  try {
    return await takeLock(dataDir, path, draft);
  } finally {
    await rm(draft, { force: true });
  }
}

/** Creates `path` with the draft's content, failing with EEXIST when it exists. */
async function publish(draft: string, path: string): Promise<void> {
  try {
    await link(draft, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file system without hard links: an exclusive copy.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    await copyFile(draft, path, constants.COPYFILE_EXCL);
  }
}

async function takeLock(dataDir: string, path: string, draft: string): Promise<DataDirLock> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      await publish(draft, path);
      heldHere.add(path);
      return {
        async release() {
          heldHere.delete(path);
          await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const text = await readFile(path, 'utf8').catch(() => '');
      const holder = parseHolder(text);
      // Our own pid without our own lock is a previous life of this host (a container's
      // pid 1 restarted after a kill): stale, like any holder that no longer runs.
      if (Number.isInteger(holder.pid) && holder.pid !== process.pid && holderRuns(holder)) {
        throw new StoreError(
          'store_unavailable',
          `data directory ${dataDir} is in use by process ${holder.pid}; stop it or set PROGRAMRUN_DATA_DIR to another directory`,
        );
      }
      // Taken over only if it still names the dead holder (another process may have just
      // taken it over itself).
      if ((await readFile(path, 'utf8').catch(() => '')) === text) await rm(path, { force: true });
    }
  }
  throw new StoreError('store_unavailable', `cannot lock data directory ${dataDir}`);
}
