import { z } from 'zod';
import { webhookEventSchema } from '../schemas/webhook-event.js';
import { EVENT_TYPES, type EventType } from '@programrun/engine';
import { EVENT_DATA_SCHEMAS } from './event-data-schemas.js';

/** A JSON Schema object as zod writes it. */
export type JsonSchemaObject = Record<string, unknown>;

/**
 * Public URL id of the combined event JSON Schema (also its path under docs/reference/).
 *
 * @example
 * ```ts
 * webhookEventJsonSchema().$id === WEBHOOK_EVENT_SCHEMA_ID; // true
 * ```
 */
export const WEBHOOK_EVENT_SCHEMA_ID = 'https://programrun.dev/schemas/webhook-event.schema.json';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const ACCOUNT_EVENT: EventType = 'webhook_endpoint.disabled';

/**
 * Drops what zod writes that says nothing to a reader: the regex beside
 * `format: date-time` and JavaScript's safe-integer bounds.
 */
function tidy({ jsonSchema }: { jsonSchema: JsonSchemaObject }): void {
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
}

/**
 * The JSON Schema (draft 2020-12) of one event type's `data`, without `$schema`.
 *
 * @example
 * ```ts
 * eventDataJsonSchema('program_run.wait.started').required; // ['duration', 'attempt', 'fires_at']
 * ```
 */
export function eventDataJsonSchema(type: EventType): JsonSchemaObject {
  const schema = z.toJSONSchema(EVENT_DATA_SCHEMAS[type], {
    target: 'draft-2020-12',
    override: tidy,
  }) as JsonSchemaObject;
  delete schema.$schema;
  return schema;
}

/** The envelope with its `$defs` hoisted: the root is the `WebhookEvent` definition. */
function envelopeJsonSchema(): { root: JsonSchemaObject; defs: Record<string, JsonSchemaObject> } {
  const generated = z.toJSONSchema(webhookEventSchema, {
    target: 'draft-2020-12',
    override: tidy,
  }) as { $defs: Record<string, JsonSchemaObject> };
  const { WebhookEvent: root, ...defs } = generated.$defs;
  return { root: root!, defs };
}

const typeIs = (type: EventType): JsonSchemaObject => ({
  properties: { type: { const: type } },
  required: ['type'],
});

/**
 * The JSON Schema (draft 2020-12) of the whole event: the envelope with `type` enumerated
 * and `data` discriminated by `type` (one `if`/`then` per type); run events carry their
 * run, sequence and record hash, the account-level event carries none.
 *
 * @example
 * ```ts
 * await writeFile('docs/reference/webhook-event.schema.json', `${JSON.stringify(webhookEventJsonSchema(), null, 2)}\n`);
 * ```
 */
export function webhookEventJsonSchema(): JsonSchemaObject {
  const { root, defs } = envelopeJsonSchema();
  const properties = root.properties as Record<string, JsonSchemaObject>;
  const dataDefs: Record<string, JsonSchemaObject> = {};
  for (const type of EVENT_TYPES) dataDefs[type] = eventDataJsonSchema(type);
  return {
    $schema: DIALECT,
    $id: WEBHOOK_EVENT_SCHEMA_ID,
    title: 'programrun webhook event',
    ...root,
    properties: { ...properties, type: { ...properties.type, enum: EVENT_TYPES } },
    allOf: [
      {
        if: typeIs(ACCOUNT_EVENT),
        then: {
          properties: {
            sequence: { type: 'null' },
            run: { type: 'null' },
            stage: { type: 'null' },
            step: { type: 'null' },
            record_hash: { type: 'null' },
          },
        },
        else: {
          properties: {
            id: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
            sequence: { type: 'integer' },
            run: { $ref: '#/$defs/WebhookEventRun' },
            record_hash: { type: 'string' },
          },
        },
      },
      ...EVENT_TYPES.map((type) => ({
        if: typeIs(type),
        then: { properties: { data: { $ref: `#/$defs/${type}` } } },
      })),
    ],
    $defs: { ...defs, ...dataDefs },
  };
}

/**
 * `docs/reference/webhook-event.schema.json` as committed: two-space indented, with a
 * final newline.
 *
 * @example
 * ```ts
 * await writeFile('docs/reference/webhook-event.schema.json', webhookEventSchemaJson());
 * ```
 */
export function webhookEventSchemaJson(): string {
  return `${JSON.stringify(webhookEventJsonSchema(), null, 2)}\n`;
}
