import { z } from 'zod';
import { scenarioSchema } from './scenario-schema.js';

/**
 * Public URL id of the scenario JSON Schema (also its path under docs/reference/).
 *
 * @example
 * ```ts
 * scenarioJsonSchema().$id === SCENARIO_SCHEMA_ID; // true
 * ```
 */
export const SCENARIO_SCHEMA_ID = 'https://programrun.dev/schemas/scenario.schema.json';

/**
 * The JSON Schema (draft 2020-12) of the scenario format, generated from the zod schema
 * (the source of truth). Editors use it through the `# yaml-language-server: $schema=`
 * line at the top of every scenario.
 *
 * @example
 * ```ts
 * await writeFile('scenarios/scenario.schema.json', JSON.stringify(scenarioJsonSchema(), null, 2));
 * ```
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(scenarioSchema, {
    target: 'draft-2020-12',
    io: 'input',
  }) as Record<string, unknown>;
  return { ...generated, $id: SCENARIO_SCHEMA_ID };
}
