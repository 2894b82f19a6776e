// The fetch example bundled the way a Worker is deployed: one script, every import inlined
// (our packages from source), scenario YAML as text, nothing left for a module loader.
import { build } from 'esbuild';

/**
 * One self-contained service-worker script of `entry`, with `PROGRAMRUN_TEST_KEY` defined.
 *
 * @example
 * ```ts
 * const script = await edgeBundle('test/fixtures/edge-worker.ts', here, 'pr_test_…');
 * ```
 */
export async function edgeBundle(
  entry: string,
  workingDirectory: string,
  testKey: string,
): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: workingDirectory,
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@programrun/source', 'worker', 'browser', 'import', 'default'],
    loader: { '.yaml': 'text' },
    define: { PROGRAMRUN_TEST_KEY: JSON.stringify(testKey) },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
