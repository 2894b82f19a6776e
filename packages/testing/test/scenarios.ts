import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';

/** Every scenario under scenarios/, compiled. */
export function repositoryScenarios() {
  return loadCatalogue(fileURLToPath(new URL('../../../scenarios/', import.meta.url)));
}
