import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: where `scenarios/` is, and the working directory of commands. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The built binary, as `npx programrun` runs it. */
export const BIN = fileURLToPath(new URL('../bin/programrun.js', import.meta.url));
/** Fixtures of the CLI's own tests. */
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Reports a command's CPU time on descriptor 3 as it exits. */
const CPU_TIME_PRELOAD = fileURLToPath(new URL('./cpu-time-preload.mjs', import.meta.url));

/** What a command did. */
export interface BinResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /**
   * With `cpuTime`: the CPU time the command's main thread used (user and system), in ms
   * (`cpu-time-preload.mjs`). Unlike the wall-clock time, it does not grow while other
   * processes share the cores.
   */
  readonly cpuMs?: number;
}

/**
 * Runs `node dist/bin.js <args>` in `cwd` (default: the repository root) and collects
 * its exit code and output (and, with `cpuTime`, the CPU time it used).
 */
export function programrun(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; cpuTime?: boolean } = {},
): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const preload = options.cpuTime ? ['--import', CPU_TIME_PRELOAD] : [];
    const child = spawn(process.execPath, [...preload, BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe', ...(options.cpuTime ? (['pipe'] as const) : [])],
    });
    let stdout = '';
    let stderr = '';
    let cpu = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdio[3]?.on('data', (chunk: Buffer) => (cpu += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout, stderr, ...(options.cpuTime ? { cpuMs: Number(cpu) } : {}) }),
    );
  });
}
