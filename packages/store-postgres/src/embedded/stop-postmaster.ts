// Stopping a server: SIGINT (fast shutdown: sessions end, a checkpoint, exit), then SIGQUIT
// (immediate: the next start replays the WAL), then SIGKILL, each after a grace period.
import { realpath, readlink } from 'node:fs/promises';
import { isProcessRunning, processCommandLine } from '../processes/process-liveness.js';

const FAST_MS = 30_000;
const IMMEDIATE_MS = 5_000;
const POLL_MS = 20;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves true once `pid` no longer runs (a zombie counts as gone), false after `ms`. */
export async function waitUntilGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isProcessRunning(pid)) {
    if (Date.now() >= deadline) return false;
    await pause(POLL_MS);
  }
  return true;
}

const send = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
};

/** Stops the server `pid` and resolves once it has exited. */
export async function stopPostmaster(pid: number): Promise<void> {
  send(pid, 'SIGINT');
  if (await waitUntilGone(pid, FAST_MS)) return;
  send(pid, 'SIGQUIT');
  if (await waitUntilGone(pid, IMMEDIATE_MS)) return;
  send(pid, 'SIGKILL');
  await waitUntilGone(pid, IMMEDIATE_MS);
}

/**
 * Whether `pid` is a PostgreSQL server on `clusterDir`: its working directory is that
 * directory (Linux; a server changes into its data directory), else its command line names
 * it. A process that merely got a dead server's id (after a reboot) is not.
 */
export async function isPostmasterOf(pid: number, clusterDir: string): Promise<boolean> {
  if (process.platform === 'linux') {
    const [cwd, cluster] = await Promise.all([
      readlink(`/proc/${pid}/cwd`).catch(() => null),
      realpath(clusterDir).catch(() => clusterDir),
    ]);
    if (cwd !== null) return cwd === cluster;
  }
  return processCommandLine(pid)?.includes(clusterDir) ?? false;
}
