// Starts the server as a process of its own session (`detached`): a Ctrl-C in the terminal
// reaches the host, which closes its connections and then stops the server, never the
// server first. Its output goes to the log file in the data directory.
import { spawn } from 'node:child_process';
import { open, stat } from 'node:fs/promises';
import type { ServerAccount } from './server-account.js';
import { readPostmasterPid } from './postmaster-pid.js';
import { waitUntilGone } from './stop-postmaster.js';

/** Past this size the log is started afresh. */
const LOG_LIMIT_BYTES = 10 * 1024 * 1024;
const READY_TIMEOUT_MS = 120_000;
const POLL_MS = 25;

/** A server that started and accepts connections. */
export interface StartedPostmaster {
  readonly pid: number;
}

/** A server that exited (or never became ready), with the lines it logged this time. */
export class PostmasterStartError extends Error {
  constructor(
    message: string,
    readonly log: string,
  ) {
    super(message);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the server wrote to `logFile` from byte `from` on. */
async function logSince(logFile: string, from: number): Promise<string> {
  const handle = await open(logFile, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.max(0, Math.min(size - from, 64 * 1024));
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, Math.max(from, size - length));
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Runs `postgres -D clusterDir <flags>` and resolves once its lock file says `ready`;
 * rejects with {@link PostmasterStartError} when it exits first or is not ready in time.
 */
export async function spawnPostmaster(options: {
  readonly postgres: string;
  readonly clusterDir: string;
  readonly flags: readonly string[];
  readonly logFile: string;
  readonly account: ServerAccount | null;
}): Promise<StartedPostmaster> {
  const size = await stat(options.logFile).then(
    (info) => info.size,
    () => 0,
  );
  const log = await open(options.logFile, size > LOG_LIMIT_BYTES ? 'w' : 'a', 0o600);
  const from = size > LOG_LIMIT_BYTES ? 0 : size;
  let exited: string | null = null;
  let child;
  try {
    child = spawn(options.postgres, ['-D', options.clusterDir, ...options.flags], {
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
      env: { PATH: process.env.PATH ?? '', LC_ALL: 'C', TZ: 'UTC' },
      ...(options.account ? { uid: options.account.uid, gid: options.account.gid } : {}),
    });
  } finally {
    await log.close();
  }
  child.unref();
  child.once('error', (error) => (exited = error.message));
  child.once('exit', (code, signal) => (exited = `exited with ${String(code ?? signal)}`));
  const pid = child.pid;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited !== null || pid === undefined) {
      throw new PostmasterStartError(
        `PostgreSQL ${exited ?? 'did not start'}`,
        await logSince(options.logFile, from).catch(() => ''),
      );
    }
    const lock = await readPostmasterPid(options.clusterDir).catch(() => null);
    if (lock?.pid === pid && lock.status === 'ready') return { pid };
    if (Date.now() >= deadline) {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // It exited meanwhile.
      }
      await waitUntilGone(pid, 5_000);
      throw new PostmasterStartError(
        `PostgreSQL was not ready within ${READY_TIMEOUT_MS / 1000} s`,
        await logSince(options.logFile, from).catch(() => ''),
      );
    }
    await pause(POLL_MS);
  }
}
