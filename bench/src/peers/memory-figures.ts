// The memory-store figures that go with bench:peers, from the scripts that already measure
// them: the full engine run of qr-merchant-settlement@v1 vs a raw XState actor
// (engine-vs-xstate.ts) and POST /v1/program-runs through node:http vs bare node:http
// (http-adapters.ts, ADAPTERS=node; memory store, rate limit off). Each runs in its own
// process, one after the other, its output passed through; each is bounded in time.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SOURCE_CONDITION = '--conditions=@programrun/source';

/** Runs `src/<script>` with extra environment; rejects on a non-zero exit or after `limitMs`. */
function runScript(script: string, env: Record<string, string>, limitMs: number): Promise<void> {
  // The scripts' own server processes inherit NODE_OPTIONS, so they load the same sources.
  const nodeOptions = process.execArgv.includes(SOURCE_CONDITION)
    ? `${process.env.NODE_OPTIONS ?? ''} ${SOURCE_CONDITION}`.trim()
    : process.env.NODE_OPTIONS;
  const child = fork(fileURLToPath(new URL(`../${script}`, import.meta.url)), {
    env: { ...process.env, ...env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${script} ended with ${signal ?? `exit code ${String(code)}`}`));
    });
  });
}

/**
 * bench:engine with its defaults, then bench:http for the node adapter only.
 *
 * @example
 * ```ts
 * if (process.env.MEMORY === '1') await memoryFigures();
 * ```
 */
export async function memoryFigures(): Promise<void> {
  console.log('\nMemory store: the full engine run vs raw XState (bench:engine)');
  await runScript('engine-vs-xstate.ts', {}, 300_000);
  console.log('\nMemory store: HTTP create vs bare node:http (bench:http, ADAPTERS=node)');
  await runScript('http-adapters.ts', { ADAPTERS: 'node' }, 300_000);
}
