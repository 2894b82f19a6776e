// Runs a command to completion with a time limit and collects its output: for steps that
// install, pack and run what a user would.
import { spawn } from 'node:child_process';

/** What a command did. */
export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where and how to run it. */
export interface CommandOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** @default 240000 */
  readonly timeoutMs?: number;
  readonly input?: string;
}

/**
 * The environment of a user's shell: this process's, without what the package manager
 * running the tests put there for its own scripts (`npm_*`, `PNPM_*`, `INIT_CWD`).
 *
 * @example
 * ```ts
 * spawn('npm', ['install'], { env: userEnvironment() });
 * ```
 */
export function userEnvironment(): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(npm_|PNPM_|INIT_CWD$|NODE_OPTIONS$|VITEST|TEST$)/.test(name),
    ),
  );
}

/**
 * Runs `command args` and resolves with its exit code and output (never rejects for a
 * non-zero exit; rejects when it cannot start or runs out of time).
 *
 * @example
 * ```ts
 * const { code, stdout } = await runCommand('npm', ['--version'], { cwd: '/tmp' });
 * ```
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: CommandOptions,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? userEnvironment(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timeoutMs = options.timeoutMs ?? 240_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${command} ${args.join(' ')} ran over ${timeoutMs} ms:\n${stdout}\n${stderr}`.trim(),
        ),
      );
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Like {@link runCommand}, but a non-zero exit rejects with the command and its output.
 *
 * @example
 * ```ts
 * await mustRun('npm', ['install'], { cwd: project });
 * ```
 */
export async function mustRun(
  command: string,
  args: readonly string[],
  options: CommandOptions,
): Promise<CommandResult> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited with ${String(result.code)} in ${options.cwd}:\n${result.stdout}\n${result.stderr}`,
    );
  return result;
}
