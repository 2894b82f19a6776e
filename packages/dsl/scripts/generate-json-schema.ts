// Writes scenarios/scenario.schema.json (shipped in @programrun/scenarios) from the zod
// schema, the source of truth. Usage: pnpm --filter @programrun/dsl generate:json-schema
import { writeFile } from 'node:fs/promises';
import { scenarioJsonSchema } from '../src/index.js';

const target = new URL('../../../scenarios/scenario.schema.json', import.meta.url);
await writeFile(target, `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
