import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClusterLayout } from './cluster-layout.js';
import { readPostmasterPid } from './postmaster-pid.js';
import { isPostmasterOf, stopPostmaster } from './stop-postmaster.js';
import { isProcessRunning } from '../processes/process-liveness.js';

/**
 * A server left running by a previous life of the host (killed with SIGKILL: its server
 * outlives it): stopped, so this start owns the server it talks to. A pid that now names
 * another process (after a reboot) is not touched; its stale lock file is removed.
 */
export async function stopLeftoverServer(layout: ClusterLayout): Promise<void> {
  const lock = await readPostmasterPid(layout.clusterDir);
  if (lock === null || !isProcessRunning(lock.pid)) return;
  if (await isPostmasterOf(lock.pid, layout.clusterDir)) {
    await stopPostmaster(lock.pid);
    return;
  }
  await rm(join(layout.clusterDir, 'postmaster.pid'), { force: true });
}
