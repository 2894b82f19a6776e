import { fileURLToPath } from 'node:url';
import {
  compile,
  formatProblem,
  loadScenarioDirectory,
  type CompiledScenario,
} from '@programrun/dsl';

/** The repository's scenarios/ directory. */
export const SCENARIO_DIRECTORY = fileURLToPath(new URL('../../../scenarios/', import.meta.url));

let cached: Promise<CompiledScenario[]> | undefined;

/** Every scenario of the catalogue, compiled once per test file. */
export function catalogueScenarios(): Promise<CompiledScenario[]> {
  cached ??= loadScenarioDirectory(SCENARIO_DIRECTORY).then(({ scenarios, problems }) => {
    if (problems.length > 0) throw new Error(problems.map(formatProblem).join('\n'));
    return scenarios.map((scenario) => compile(scenario));
  });
  return cached;
}
