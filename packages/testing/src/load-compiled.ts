import { fileURLToPath } from 'node:url';
import { compile, formatProblem, type CompiledScenario } from '@programrun/dsl';
import { loadScenarioFile } from '@programrun/dsl/node';
import { CheckError } from './check-error.js';

/**
 * Loads and compiles one scenario file (a path or a `file:` URL). Throws
 * `scenario_not_loaded` listing every problem when the file does not load.
 *
 * @example
 * ```ts
 * const compiled = await loadCompiledScenario(new URL('../scenarios/wallet-delivery@v1.yaml', import.meta.url));
 * ```
 */
export async function loadCompiledScenario(file: string | URL): Promise<CompiledScenario> {
  const path = file instanceof URL ? fileURLToPath(file) : file;
  const loaded = await loadScenarioFile(path);
  if (!loaded.ok) {
    throw new CheckError(
      'scenario_not_loaded',
      `${path} does not load:\n${loaded.problems.map(formatProblem).join('\n')}`,
    );
  }
  return compile(loaded.scenario);
}
