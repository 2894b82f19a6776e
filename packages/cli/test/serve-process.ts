import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, ROOT } from './run-bin.js';

/** A `programrun serve` child process. */
export interface ServeProcess {
  readonly child: ChildProcess;
  /** Resolves with its base URL and test key once the banner is printed. */
  readonly started: Promise<{ base: string; key: string }>;
  /** Resolves with its exit code. */
  readonly exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
}

const children: ChildProcess[] = [];

/** SIGKILLs every server {@link serve} started that is still running (for `afterAll`). */
export function killServers(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * Starts `programrun serve` from the repository root (store and test key from `env` only)
 * and waits for its banner.
 *
 * @example
 * ```ts
 * const server = serve(['--port', '0'], { PROGRAMRUN_STORE: 'memory' });
 * const { base, key } = await server.started;
 * ```
 */
export function serve(args: string[], env: Record<string, string>): ServeProcess {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, PROGRAMRUN_STORE: '', PROGRAMRUN_TEST_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = new Promise<{ base: string; key: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not start:\n${stdout}${stderr}`)),
      30_000,
    );
    child.stdout.on('data', () => {
      const base = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(stdout)?.[1];
      const key = /Test API key: (\S+)/.exec(stdout)?.[1];
      if (base && key && stdout.includes('Stop with')) {
        clearTimeout(timer);
        resolve({ base, key });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${String(code)}: ${stderr}`)));
  });
  return { child, started, exited, output: () => ({ stdout, stderr }) };
}
