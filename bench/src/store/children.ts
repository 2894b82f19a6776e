import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DriveResult } from './drive.js';

/**
 * Stops a child process: SIGTERM (the store children close their store), then SIGKILL
 * after `graceMs`. Resolves once it has exited, so its PGlite directory can be removed.
 *
 * @example
 * ```ts
 * await stopChild(server.child);
 * ```
 */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** The raw-transaction driver in its own process (src/servers/store-raw.ts). */
export interface RawDriver {
  readonly child: ChildProcess;
  /** Drives raw create transactions for `seconds` from `concurrency` loops. */
  run(seconds: number, concurrency: number): Promise<DriveResult>;
}

/**
 * Forks the raw driver over the store its environment names; resolves once it is ready.
 *
 * @example
 * ```ts
 * const raw = await startRawDriver({ STORE: 'postgres', DATABASE_URL, SCHEMA: 'bench_raw', POOL: '8' });
 * const { perSecond } = await raw.run(3, 16);
 * ```
 */
export async function startRawDriver(env: Record<string, string>): Promise<RawDriver> {
  const child = fork(fileURLToPath(new URL('../servers/store-raw.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
  });
  process.on('exit', () => child.kill('SIGKILL'));
  const answer = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`store-raw.ts exited with ${String(code)}`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message as T);
      });
    });
  await answer<{ ready: true }>();
  return {
    child,
    run(seconds, concurrency) {
      const result = answer<DriveResult>();
      child.send({ seconds, concurrency });
      return result;
    },
  };
}
