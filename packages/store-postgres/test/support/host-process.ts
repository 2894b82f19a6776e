// Starts host.ts as a child process from TypeScript sources (tsx, with the workspace
// packages resolved to their src/ through the @programrun/source export condition).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIRECTORY = fileURLToPath(new URL('../../', import.meta.url));
const HOST_ENTRY = 'test/support/host.ts';

/** A running host process. */
export interface HostProcess {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  /** The host's process id (from its ready line; not the wrapper's, when it has one). */
  readonly pid: number;
  /** Everything the host wrote to stderr so far (errors of its scheduler or dispatcher). */
  readonly errors: () => string;
  /** Kills it with SIGKILL and resolves once it is gone (its PGlite lock is then stale). */
  crash(): Promise<void>;
  /** Asks it to stop (SIGTERM: store closed, lock released); SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Hosts not stopped yet, so a failing test can still end every child it started. */
const running = new Set<ChildProcess>();
/** The host's own pid of each child, once its ready line named it (differs under a wrapper). */
const hostPids = new Map<ChildProcess, number>();

/** Sends `signal` to a process that may have exited already. */
const sendSignal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
};

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * Starts a host with `environment` added to this process's and resolves when it prints
 * its ready line (rejects with its output when it exits first or takes over `timeoutMs`).
 * `wrapper` runs it under another program (`['strace', '-f', …]`); signals still go to
 * the host itself. `entry` is the host program (another host of test/support, e.g. one
 * that calls partners), relative to the package directory.
 *
 * @example
 * ```ts
 * const host = await startHost({ PROGRAMRUN_STORE: 'pglite', PROGRAMRUN_DATA_DIR: dir, PROGRAMRUN_TEST_KEY: key });
 * await fetch(`${host.baseUrl}/v1/scenarios`, { headers: { authorization: `Bearer ${key}` } });
 * await host.crash();
 * ```
 */
export async function startHost(
  environment: Readonly<Record<string, string>>,
  timeoutMs = 30_000,
  wrapper: readonly string[] = [],
  entry: string = HOST_ENTRY,
): Promise<HostProcess> {
  const [command = process.execPath, ...args] = [
    ...wrapper,
    process.execPath,
    '--conditions=@programrun/source',
    '--import',
    'tsx',
    entry,
  ];
  const child = spawn(command, args, {
    cwd: PACKAGE_DIRECTORY,
    env: { ...process.env, PORT: '0', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  void exited(child).then(() => {
    running.delete(child);
    hostPids.delete(child);
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const { port, pid } = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`host did not start in ${timeoutMs} ms:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = /^\{"ready":true.*\}$/m.exec(stdout);
      if (!line) return;
      clearTimeout(timer);
      resolve(JSON.parse(line[0]) as { port: number; pid: number });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`host exited (${String(code ?? signal)}) before it was ready:\n${stderr}`));
    });
  });
  hostPids.set(child, pid);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid,
    errors: () => stderr,
    async crash() {
      sendSignal(pid, 'SIGKILL');
      await exited(child);
    },
    async stop(graceMs = 10_000) {
      const gone = exited(child);
      sendSignal(pid, 'SIGTERM');
      const timer = setTimeout(() => sendSignal(pid, 'SIGKILL'), graceMs);
      await gone;
      clearTimeout(timer);
    },
  };
}

/**
 * Kills (SIGKILL) every host this process started that is still running: for `afterAll`
 * and `afterEach`, so a failed assertion never leaves a child behind.
 *
 * @example
 * ```ts
 * afterAll(() => killAllHosts());
 * ```
 */
export async function killAllHosts(): Promise<void> {
  const children = [...running];
  for (const child of children) {
    const pid = hostPids.get(child);
    if (pid !== undefined) sendSignal(pid, 'SIGKILL');
    child.kill('SIGKILL');
  }
  await Promise.all(children.map(exited));
}
