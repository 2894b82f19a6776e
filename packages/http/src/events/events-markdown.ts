import {
  EVENT_TYPE_MEANINGS,
  EVENT_TYPES,
  type EventType,
  type WebhookEvent,
} from '@programrun/engine';
import { EVENT_SOURCES } from './event-sources.js';
import { eventDataJsonSchema } from './webhook-event-json-schema.js';

/** One example event per type (types without one get no example block). */
export type EventExamples = Partial<Readonly<Record<EventType, WebhookEvent>>>;

const INTRO = `<!-- Generated from packages/http/src/events/ by \`pnpm --filter @programrun/http generate:reference\`; do not edit. -->
# Events

An event is something that happened: to a run (\`program_run.*\`, one event per
[lifecycle record](lifecycle-events.md)) or to your account (\`webhook_endpoint.disabled\`).
Webhooks deliver events and \`GET /v1/events\` lists them; the [webhooks guide](../guides/webhooks.md)
covers endpoints, signatures and retries. The JSON Schema of every event, with \`data\`
discriminated by \`type\`, is [webhook-event.schema.json](webhook-event.schema.json) (draft 2020-12).

| Field | Meaning |
| --- | --- |
| \`id\` | \`evt_\` + 32 hex digits of sha-256 over \`<run id>:<sequence>\` (the lifecycle record's id): deterministic, so every redelivery carries the same id. It is also the \`webhook-id\` header |
| \`object\` | Always \`"event"\` |
| \`type\` | One of the types below; new types may be added, so ignore types you do not handle |
| \`sequence\` | 1-based position in the run's history; \`null\` for account-level events |
| \`created\` | ISO 8601 time of the record on the run's environment clock (the test clock in test) |
| \`livemode\` | \`true\` for the live environment, \`false\` for test |
| \`run\` | \`{ id, scenario_id, scenario_digest }\`: enough to route the event without fetching the run; \`null\` for account-level events |
| \`stage\`, \`step\` | Where in the scenario it happened (\`null\` when not applicable) |
| \`data\` | Type-specific facts: the record's \`data\`, with the JSON Schema given per type below |
| \`record_hash\` | The lifecycle record's \`hash\`, which chains into the run's evidence; \`null\` for account-level events |

**Bytes.** A delivery's body is the RFC 8785 canonical JSON of the event, so a redelivery
sends exactly the same bytes.

**Order and duplicates.** Delivery is at least once and not necessarily in order: deduplicate
on \`webhook-id\` (the event \`id\`) and order a run's events by \`sequence\`, which is contiguous
per run; a gap means an earlier event has not arrived yet (\`GET /v1/program-runs/{id}/events\`
lists them all).

**Waiting.** There is no separate "waiting" event. A run is waiting from
\`program_run.approval.requested\`, \`program_run.handoff.requested\` or
\`program_run.wait.started\` until the event that ends that step (an approval may first record
decisions with \`program_run.approval.recorded\` and still wait); the run's \`awaiting\` says what
it waits for.

The examples below come from real runs of the catalogue scenarios in the test environment on a
virtual clock with seeded ids; \`suspended\` and \`resumed\` from a live run of a restricted scenario,
and \`step.skipped\` from a variant of \`wallet-delivery@v1\` (no catalogue step has a \`when\`).
The \`handoff.attempted\` example (a live connector's call; its \`duration_ms\` is measured) and the
account-level example are illustrative.
`;

const fenced = (language: string, value: unknown): string =>
  `\`\`\`${language}\n${JSON.stringify(value, null, 2)}\n\`\`\``;

function section(type: EventType, example: WebhookEvent | undefined): string {
  const parts = [
    `## \`${type}\``,
    EVENT_TYPE_MEANINGS[type],
    `**Emitted by.** ${EVENT_SOURCES[type]}`,
    `**\`data\` schema**`,
    fenced('json', eventDataJsonSchema(type)),
  ];
  if (example) parts.push('**Example**', fenced('json', example));
  return parts.join('\n\n');
}

/**
 * The event catalogue as Markdown (`docs/reference/events.md`): the envelope, delivery
 * semantics, and for every type its meaning, what emits it, the JSON Schema of its `data`
 * and an example event when `examples` has one.
 *
 * @example
 * ```ts
 * await writeFile('docs/reference/events.md', eventsMarkdown(await collectEventExamples()));
 * ```
 */
export function eventsMarkdown(examples: EventExamples = {}): string {
  const index = EVENT_TYPES.map(
    (type) =>
      `| [\`${type}\`](#${anchor(type)}) | ${EVENT_TYPE_MEANINGS[type].replace(/\|/g, '\\|')} |`,
  );
  const sections = EVENT_TYPES.map((type) => section(type, examples[type]));
  return `${INTRO}
| Type | Meaning |
| --- | --- |
${index.join('\n')}

${sections.join('\n\n')}
`;
}

/** GitHub's heading anchor of a \`type\` heading: lowercase, punctuation but - and _ dropped. */
function anchor(type: EventType): string {
  return type.toLowerCase().replace(/[^a-z0-9_ -]/g, '');
}
