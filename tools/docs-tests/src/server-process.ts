// A long-running process (a server a guide starts), read until it prints what a reader
// would wait for, then stopped at the end of the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { userEnvironment } from './run-command.js';

/** A started server. */
export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Sends SIGTERM (SIGKILL after `graceMs`) and resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts `command args` and resolves once its output matches every pattern of `ready`.
 *
 * @example
 * ```ts
 * const server = await startServer(process.execPath, ['server.js'], { cwd, ready: [/on (http:\S+)/] });
 * ```
 */
export function startServer(
  command: string,
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly env?: Readonly<Record<string, string | undefined>>;
    readonly ready: readonly RegExp[];
    /** @default 60000 */
    readonly timeoutMs?: number;
  },
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...userEnvironment(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const server: ServerProcess = {
    child,
    output: () => output,
    stop: (graceMs = 10_000) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} was not ready in time:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.ready.every((pattern) => pattern.test(output))) {
        clearTimeout(timer);
        resolve(server);
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${String(code)} before it was ready:\n${output}`));
    });
  });
}
