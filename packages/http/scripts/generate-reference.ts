// Writes the generated reference pages under docs/reference/.
// Usage: pnpm --filter @programrun/http generate:reference
import { writeFile } from 'node:fs/promises';
import { openApiReferenceJson } from '../src/openapi/reference-json.js';
import { errorCatalogueMarkdown, lifecycleEventsMarkdown } from '../src/reference-docs.js';

const reference = new URL('../../../docs/reference/', import.meta.url);
await writeFile(new URL('errors.md', reference), errorCatalogueMarkdown());
await writeFile(new URL('lifecycle-events.md', reference), lifecycleEventsMarkdown());
await writeFile(new URL('openapi.json', reference), openApiReferenceJson());
console.log(
  'wrote docs/reference/errors.md, docs/reference/lifecycle-events.md and docs/reference/openapi.json',
);
