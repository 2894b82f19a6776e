import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreError } from '@programrun/engine';

/** A held data-directory lock. */
export interface DataDirLock {
  release(): Promise<void>;
}

/** Lock files this process holds (a second open here would corrupt the files too). */
const heldHere = new Set<string>();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes `<dataDir>/programrun.lock` (our process id) so that a second process never opens
 * the same PGlite files: two writers would corrupt them. A lock left by a process that
 * died (SIGKILL, power loss) is taken over.
 *
 * @example
 * ```ts
 * const lock = await lockDataDir('.programrun/data');
 * await lock.release();
 * ```
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, 'programrun.lock');
  if (heldHere.has(path)) {
    throw new StoreError(
      'store_unavailable',
      `data directory ${dataDir} is already open in this process; share one store`,
    );
  }
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      heldHere.add(path);
      return {
        async release() {
          heldHere.delete(path);
          await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      // Our own pid without our own lock is a previous life of this host (a container's
      // pid 1 restarted after a kill): stale, like any holder that no longer runs.
      if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
        throw new StoreError(
          'store_unavailable',
          `data directory ${dataDir} is in use by process ${holder}; stop it or set PROGRAMRUN_DATA_DIR to another directory`,
        );
      }
      await rm(path, { force: true });
    }
  }
  throw new StoreError('store_unavailable', `cannot lock data directory ${dataDir}`);
}
