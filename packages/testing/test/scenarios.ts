import { fileURLToPath } from 'node:url';
import { compile, formatProblem, loadScenarioDirectory } from '@programrun/dsl';

/** Every scenario under scenarios/, compiled. */
export async function repositoryScenarios() {
  const loaded = await loadScenarioDirectory(
    fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
  );
  if (loaded.problems.length > 0) throw new Error(loaded.problems.map(formatProblem).join('\n'));
  return loaded.scenarios.map((scenario) => compile(scenario));
}
