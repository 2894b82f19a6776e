// A host killed with SIGKILL leaves its embedded PostgreSQL server running (the next host
// on the directory stops it). Suites that delete a data directory stop it first.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readPostmasterPid } from '../../src/embedded/postmaster-pid.js';
import { stopPostmaster } from '../../src/embedded/stop-postmaster.js';

/**
 * Stops the embedded server running in `dataDir`, if any (fast shutdown).
 *
 * @example
 * ```ts
 * await killAllHosts();
 * await stopLeftoverServer(dataDir);
 * ```
 */
export async function stopLeftoverServer(dataDir: string): Promise<void> {
  const lock = await readPostmasterPid(join(dataDir, 'postgres'));
  if (lock !== null) await stopPostmaster(lock.pid);
}

/** The processes whose parent is `pid` (Linux, from /proc). */
async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === pid) children.push(Number(entry));
  }
  return children;
}

/**
 * The embedded server of `dataDir` and every process it started (sessions, WAL writer,
 * checkpointer), for a test that kills them all at once with the host (Linux only).
 *
 * @example
 * ```ts
 * for (const pid of [host.pid, ...(await serverTree(dataDir))]) process.kill(pid, 'SIGKILL');
 * ```
 */
export async function serverTree(dataDir: string): Promise<number[]> {
  const lock = await readPostmasterPid(join(dataDir, 'postgres'));
  if (lock === null) return [];
  return [lock.pid, ...(await childrenOf(lock.pid))];
}
