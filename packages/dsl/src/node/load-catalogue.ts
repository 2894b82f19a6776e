import { compile, type CompiledScenario } from '../compile/compile.js';
import { ScenarioError } from '../problem.js';
import { loadScenarioDirectory } from './load-files.js';

/**
 * The catalogue of a directory, ready for an engine: every `*.yaml` file loaded, checked
 * and compiled, sorted by id. Refuses a catalogue with any problem (including an empty
 * directory) with one `ScenarioError` holding every problem, so a server never starts
 * with a scenario silently missing.
 *
 * @example
 * ```ts
 * import { loadCatalogue } from '@programrun/dsl/node';
 *
 * const scenarios = await loadCatalogue('scenarios');
 * ```
 */
export async function loadCatalogue(directory: string): Promise<CompiledScenario[]> {
  const { scenarios, problems } = await loadScenarioDirectory(directory);
  if (problems.length > 0) throw new ScenarioError(problems);
  return scenarios.map((scenario) => compile(scenario));
}
