import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { z } from 'zod';
import {
  EVENT_TYPE_MEANINGS,
  EVENT_TYPES,
  LIFECYCLE_EVENT_TYPES,
  webhookEventBody,
  type EventType,
  type WebhookEvent,
} from '@programrun/engine';
import { fc, runTrace, signalPlanArbitrary } from '@programrun/testing';
import type {
  ApprovalDecision,
  CompiledScenario,
  RouteSelection,
  RuleOutcome,
  RunEnding,
} from '@programrun/dsl';
import { EVENT_DATA_SCHEMAS, type EventData } from '../src/events/event-data-schemas.js';
import { EVENT_SOURCES } from '../src/events/event-sources.js';
import { webhookEventJsonSchema } from '../src/events/webhook-event-json-schema.js';
import { webhookEventSchema } from '../src/schemas/webhook-event.js';
import {
  activationTrace,
  catalogueScenarios,
  catalogueTraces,
  connectorTrace,
  ENDPOINT_DISABLED_EXAMPLE,
  eventsOf,
  HANDOFF_ATTEMPTED_EXAMPLE,
  skippedStepTrace,
  upgradeTrace,
  type EventTrace,
} from '../scripts/event-traces.js';

type AddFormats = typeof addFormatsModule.default;
const addFormats: AddFormats =
  addFormatsModule.default ?? (addFormatsModule as unknown as AddFormats);

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv, ['date-time', 'uri']);
const validateJson = ajv.compile(webhookEventJsonSchema());
// zod's z.object drops unknown keys when parsing; the check must refuse them instead.
const closedEnvelope = z.strictObject(webhookEventSchema.shape);
const known = new Set<string>(EVENT_TYPES);

/** Everything wrong with an event: zod envelope, zod data of its type, and the JSON Schema. */
function problemsOf(event: WebhookEvent): string[] {
  const problems: string[] = [];
  const envelope = closedEnvelope.safeParse(event);
  if (!envelope.success) problems.push(`envelope: ${z.prettifyError(envelope.error)}`);
  if (known.has(event.type)) {
    const data = EVENT_DATA_SCHEMAS[event.type as EventType].safeParse(event.data);
    if (!data.success) problems.push(`data: ${z.prettifyError(data.error)}`);
  } else {
    problems.push(`unknown type ${event.type}`);
  }
  // What a receiver validates: the bytes delivered, parsed.
  if (!validateJson(JSON.parse(webhookEventBody(event)))) {
    problems.push(`json schema: ${ajv.errorsText(validateJson.errors)}`);
  }
  return problems;
}

function failuresOf(traces: readonly EventTrace[]): string[] {
  return traces.flatMap((trace) =>
    trace.events.flatMap((event) =>
      problemsOf(event).map(
        (problem) => `${trace.label} #${event.sequence} ${event.type} ${problem}`,
      ),
    ),
  );
}

/** The JSON shape of a type: `readonly` dropped (as in src/schemas/engine-types.test.ts). */
type Plain<T> = T extends readonly (infer Item)[]
  ? Plain<Item>[]
  : T extends object
    ? string extends keyof T
      ? T
      : { -readonly [Key in keyof T]: Plain<T[Key]> }
    : T;

describe('the event catalogue', () => {
  it('has a data schema, a meaning and its sources for every type', () => {
    expect(EVENT_TYPES).toEqual([
      ...Object.keys(LIFECYCLE_EVENT_TYPES),
      'webhook_endpoint.disabled',
    ]);
    for (const type of EVENT_TYPES) {
      expect(EVENT_DATA_SCHEMAS[type], type).toBeInstanceOf(z.ZodType);
      expect(EVENT_TYPE_MEANINGS[type], type).toBeTruthy();
      expect(EVENT_SOURCES[type], type).toBeTruthy();
    }
    expect(Object.keys(EVENT_DATA_SCHEMAS).sort()).toEqual([...EVENT_TYPES].sort());
    expect(Object.keys(EVENT_SOURCES).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('the envelope schema infers exactly the engine WebhookEvent', () => {
    type Inferred = Plain<z.output<typeof webhookEventSchema>>;
    expectTypeOf<Inferred>().toExtend<Plain<WebhookEvent>>();
    expectTypeOf<Plain<WebhookEvent>>().toExtend<Inferred>();
  });

  it('data schemas built from compiler types infer those types', () => {
    type Route = Plain<EventData<'program_run.route.selected'>>;
    expectTypeOf<Route>().toEqualTypeOf<Plain<RouteSelection>>();
    type Rule = Plain<EventData<'program_run.policy.evaluated'>['rules'][number]>;
    expectTypeOf<Rule>().toEqualTypeOf<Plain<RuleOutcome>>();
    type Decision = Plain<EventData<'program_run.approval.granted'>['decisions'][number]>;
    expectTypeOf<Decision>().toEqualTypeOf<Plain<ApprovalDecision>>();
    // An ending's reason is any string to the compiler; the catalogue names every one.
    expectTypeOf<EventData<'program_run.faulted'>>().toExtend<
      Pick<RunEnding, 'reason' | 'message'>
    >();
  });
});

describe('events of real runs match their schemas', () => {
  let traces: EventTrace[];
  beforeAll(async () => {
    traces = [
      ...(await catalogueTraces()),
      await skippedStepTrace(),
      await activationTrace(),
      await connectorTrace(),
      await upgradeTrace(),
    ];
  });

  it('every event of every catalogue trace validates (zod and JSON Schema)', () => {
    expect(failuresOf(traces)).toEqual([]);
  });

  it('the traces cover every run event type; only the account-level one comes from no run', () => {
    const observed = new Set(traces.flatMap((trace) => trace.events.map((event) => event.type)));
    expect(EVENT_TYPES.filter((type) => !observed.has(type))).toEqual([
      'webhook_endpoint.disabled',
    ]);
    expect([...observed].filter((type) => !known.has(type))).toEqual([]);
  });

  it("a live connector's calls are recorded: the retry, then the answer", () => {
    const connector = traces.find((trace) => trace.label.endsWith('live connector'))!;
    const attempted = connector.events.filter(
      (event) => event.type === 'program_run.handoff.attempted',
    );
    expect(attempted.map((event) => event.data.outcome)).toEqual(['retrying', 'answered']);
    const types = connector.events.map((event) => event.type);
    // The answer's records follow the call that brought it.
    expect(types[types.lastIndexOf('program_run.handoff.attempted') + 1]).toBe(
      'program_run.handoff.confirmed',
    );
    expect(problemsOf(HANDOFF_ATTEMPTED_EXAMPLE)).toEqual([]);
  });

  it('the account-level example validates, and so does its shape with nulls', () => {
    expect(problemsOf(ENDPOINT_DISABLED_EXAMPLE)).toEqual([]);
    const gone = {
      ...ENDPOINT_DISABLED_EXAMPLE,
      data: { ...ENDPOINT_DISABLED_EXAMPLE.data, reason: 'gone', status: 410, failing_since: null },
    };
    expect(problemsOf(gone)).toEqual([]);
  });

  it('refuses events that drift from their type', () => {
    const requested = traces
      .flatMap((trace) => trace.events)
      .find((event) => event.type === 'program_run.handoff.requested')!;
    const withoutDeadline = Object.fromEntries(
      Object.entries(requested.data).filter(([field]) => field !== 'deadline'),
    );
    const drifted: WebhookEvent[] = [
      { ...requested, data: withoutDeadline },
      { ...requested, data: { ...requested.data, extra: true } },
      { ...requested, type: 'program_run.completed' },
      { ...requested, run: null },
      { ...requested, extra: true } as WebhookEvent,
      { ...ENDPOINT_DISABLED_EXAMPLE, sequence: 3 },
    ];
    for (const event of drifted)
      expect(problemsOf(event).length, JSON.stringify(event)).toBeGreaterThan(0);
  });
});

describe('property: random signal plans over random scenarios', () => {
  let scenarios: CompiledScenario[];
  beforeAll(async () => {
    scenarios = await catalogueScenarios();
  });

  it('never produce an event that fails its schema', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 6 }),
        signalPlanArbitrary(),
        fc.string({ minLength: 1, maxLength: 8 }),
        async (index, plan, seed) => {
          const compiled = scenarios[index % scenarios.length]!;
          const trace = await runTrace(compiled, compiled.definition.example_inputs, plan, seed);
          const failures = failuresOf([
            { label: compiled.id, events: eventsOf(trace.run, trace.records) },
          ]);
          expect(failures).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
