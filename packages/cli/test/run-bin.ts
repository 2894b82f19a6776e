import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: where `scenarios/` is, and the working directory of commands. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The built binary, as `npx programrun` runs it. */
export const BIN = fileURLToPath(new URL('../bin/programrun.js', import.meta.url));
/** Fixtures of the CLI's own tests. */
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** What a command did. */
export interface BinResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node dist/bin.js <args>` in `cwd` (default: the repository root) and collects
 * its exit code and output.
 */
export function programrun(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
