// Writes the generated reference pages under docs/reference/.
// Usage: pnpm --filter @programrun/http generate:reference
import { writeFile } from 'node:fs/promises';
import { eventsMarkdown } from '../src/events/events-markdown.js';
import { webhookEventSchemaJson } from '../src/events/webhook-event-json-schema.js';
import { openApiReferenceJson } from '../src/openapi/reference-json.js';
import { errorCatalogueMarkdown, lifecycleEventsMarkdown } from '../src/reference-docs.js';
import { collectEventExamples } from './event-traces.js';

const reference = new URL('../../../docs/reference/', import.meta.url);
await writeFile(new URL('errors.md', reference), errorCatalogueMarkdown());
await writeFile(new URL('lifecycle-events.md', reference), lifecycleEventsMarkdown());
await writeFile(new URL('openapi.json', reference), openApiReferenceJson());
await writeFile(new URL('events.md', reference), eventsMarkdown(await collectEventExamples()));
await writeFile(new URL('webhook-event.schema.json', reference), webhookEventSchemaJson());
console.log(
  'wrote docs/reference/errors.md, docs/reference/lifecycle-events.md, docs/reference/openapi.json, docs/reference/events.md and docs/reference/webhook-event.schema.json',
);
