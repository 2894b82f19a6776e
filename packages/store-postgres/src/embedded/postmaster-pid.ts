// `postmaster.pid`, the lock file PostgreSQL keeps in its data directory while it runs:
// line 1 the server's pid, 2 the data directory, 4 the port, 5 the socket directory,
// 8 its status (`starting`, `stopping`, `ready`, `standby`).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a server wrote in its lock file. */
export interface PostmasterPid {
  readonly pid: number;
  readonly status: string;
}

/** The lock file of `clusterDir`, or null when there is none (no server, or a clean stop). */
export async function readPostmasterPid(clusterDir: string): Promise<PostmasterPid | null> {
  let text: string;
  try {
    text = await readFile(join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  if (!Number.isInteger(pid)) return null;
  return { pid, status: (lines[7] ?? '').trim() };
}
