import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventsMarkdown } from '../src/events/events-markdown.js';
import { webhookEventSchemaJson } from '../src/events/webhook-event-json-schema.js';
import { openApiReferenceJson } from '../src/openapi/reference-json.js';
import { errorCatalogueMarkdown, lifecycleEventsMarkdown } from '../src/reference-docs.js';
import { collectEventExamples } from '../scripts/event-traces.js';

const read = (name: string): string =>
  readFileSync(new URL(`../../../docs/reference/${name}`, import.meta.url), 'utf8');
const stale = 'is stale: run pnpm --filter @programrun/http generate:reference';

describe('generated reference pages', () => {
  it('docs/reference/errors.md matches the error catalogue', () => {
    expect(read('errors.md'), `errors.md ${stale}`).toBe(errorCatalogueMarkdown());
  });

  it('docs/reference/lifecycle-events.md matches the event types', () => {
    expect(read('lifecycle-events.md'), `lifecycle-events.md ${stale}`).toBe(
      lifecycleEventsMarkdown(),
    );
  });

  it('docs/reference/openapi.json matches buildOpenApiDocument()', () => {
    expect(read('openapi.json'), `openapi.json ${stale}`).toBe(openApiReferenceJson());
  });

  it('docs/reference/events.md matches the event catalogue and real runs', async () => {
    expect(read('events.md'), `events.md ${stale}`).toBe(
      eventsMarkdown(await collectEventExamples()),
    );
  });

  it('docs/reference/webhook-event.schema.json matches webhookEventJsonSchema()', () => {
    expect(read('webhook-event.schema.json'), `webhook-event.schema.json ${stale}`).toBe(
      webhookEventSchemaJson(),
    );
  });
});
