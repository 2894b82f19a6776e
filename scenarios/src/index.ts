// The published catalogue: the YAML files and the scenario JSON Schema sit at the package's
// root, one directory above this module (src/ when run from source, dist/ when built).
import { fileURLToPath } from 'node:url';

/**
 * The directory holding the seven catalogue scenarios (`<name>@v1.yaml`), ready for
 * `loadCatalogue` of `@programrun/dsl/node`.
 *
 * @example
 * ```ts
 * import { loadCatalogue } from '@programrun/dsl/node';
 * import { scenariosDirectory } from '@programrun/scenarios';
 *
 * const compiled = await loadCatalogue(scenariosDirectory);
 * ```
 */
export const scenariosDirectory: string = fileURLToPath(new URL('..', import.meta.url));

/**
 * The scenario JSON Schema (draft 2020-12), generated from the DSL's zod schema. Editors
 * validate scenario files against it through their first line,
 * `# yaml-language-server: $schema=<path to this file>`.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { scenarioSchemaFile } from '@programrun/scenarios';
 *
 * const schema = JSON.parse(await readFile(scenarioSchemaFile, 'utf8')) as { $id: string };
 * ```
 */
export const scenarioSchemaFile: string = fileURLToPath(
  new URL('../scenario.schema.json', import.meta.url),
);

/**
 * The ids of the catalogue scenarios, one file `<id>.yaml` each.
 *
 * @example
 * ```ts
 * import { join } from 'node:path';
 * import { catalogueScenarioIds, scenariosDirectory } from '@programrun/scenarios';
 *
 * const files = catalogueScenarioIds.map((id) => join(scenariosDirectory, `${id}.yaml`));
 * ```
 */
export const catalogueScenarioIds = [
  'bank-payout@v1',
  'bridge-routing@v1',
  'qr-merchant-settlement@v1',
  'reserve-usd-cycle@v1',
  'sukuk-servicing@v1',
  'treasury-conversion@v1',
  'wallet-delivery@v1',
] as const;
