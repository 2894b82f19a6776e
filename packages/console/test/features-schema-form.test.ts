import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { catalogueScenarioIds, scenariosDirectory } from '@programrun/scenarios';
import type { Json } from '../app/api/types.js';
import {
  formFields,
  formInputs,
  formValues,
  leafFields,
  type FormField,
  type JsonObject,
  type JsonSchema,
} from '../app/features/scenarios/schema-form.js';
import { listText, parseList } from '../app/features/scenarios/schema-list.js';
import { placeProblems, problemFields } from '../app/features/scenarios/problem-fields.js';

interface CatalogueEntry {
  id: string;
  schema: JsonSchema;
  example: JsonObject;
}
let catalogue: CatalogueEntry[] = [];

beforeAll(async () => {
  const compiled = await loadCatalogue(scenariosDirectory);
  catalogue = compiled.map((scenario) => ({
    id: scenario.id,
    schema: scenario.definition.inputs,
    example: scenario.definition.example_inputs as JsonObject,
  }));
});

const roundTrip = (schema: JsonSchema, inputs: JsonObject) => {
  const fields = formFields(schema);
  return formInputs(fields, formValues(fields, inputs));
};
const field = (fields: readonly FormField[], key: string): FormField =>
  leafFields(fields).find((candidate) => candidate.key === key)!;

describe('the form of an inputs schema', () => {
  it('loads all seven catalogue scenarios', () => {
    expect(catalogue.map((entry) => entry.id).sort()).toEqual([...catalogueScenarioIds].sort());
  });

  it('round-trips every catalogue example unchanged, money staying text', () => {
    for (const { schema, example } of catalogue) {
      const result = roundTrip(schema, example);
      expect(result).toEqual({ ok: true, inputs: example });
    }
    const sukuk = catalogue.find((entry) => entry.id === 'sukuk-servicing@v1')!;
    const fields = formFields(sukuk.schema);
    const values = formValues(fields, sukuk.example);
    expect(values['/face_amount_outstanding']).toBe('500000000.00');
    expect(values['/period_number']).toBe('3');
    expect(values['/distributions_per_year']).toBe('2');
    const inputs = (formInputs(fields, values) as { inputs: JsonObject }).inputs;
    expect(typeof inputs.face_amount_outstanding).toBe('string');
    expect(typeof inputs.expected_profit_rate).toBe('string');
    expect(inputs.period_number).toBe(3);
    expect(inputs.distributions_per_year).toBe(2);
  });

  it('makes one field per property: kinds, required marks, hints', () => {
    const bridge = catalogue.find((entry) => entry.id === 'bridge-routing@v1')!;
    const fields = formFields(bridge.schema);
    expect(fields.map((one) => [one.label, one.kind, one.required])).toEqual([
      ['asset', 'select', true],
      ['amount', 'text', true],
      ['source_chain', 'select', true],
      ['destination_chain', 'select', true],
      ['destination_address', 'text', true],
      ['speed', 'select', false],
      ['accept_wrapped', 'checkbox', false],
      ['client_reference', 'text', false],
    ]);
    expect(field(fields, '/amount')).toMatchObject({
      type: 'string',
      hints: ['an amount as text, e.g. 125.00'],
    });
    expect(field(fields, '/speed')).toMatchObject({
      hints: ['default standard'],
      options: [
        { value: '', label: '(not set)' },
        { value: 'standard', json: 'standard' },
        { value: 'fast', json: 'fast' },
      ],
    });
    expect(field(fields, '/client_reference').hints).toEqual(['at most 64 characters']);
    const bank = formFields(catalogue.find((entry) => entry.id === 'bank-payout@v1')!.schema);
    expect(field(bank, '/beneficiary_name').hints).toEqual([
      'at least 2 characters',
      'at most 140 characters',
    ]);
    expect(field(bank, '/local_account_number').hints).toEqual(['pattern ^[0-9]{6,17}$']);
  });

  it('nests objects as groups and keeps integer enums as numbers', () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['beneficiary'],
      properties: {
        beneficiary: {
          type: 'object',
          required: ['iban'],
          properties: { iban: { type: 'string' }, name: { type: 'string' } },
        },
        payer: { type: 'object', properties: { id: { type: 'string' } } },
        per_year: { type: 'integer', enum: [1, 2, 4, 12], minimum: 1 },
        ratio: { type: 'number', maximum: 1, exclusiveMinimum: 0 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        counts: { type: 'array', items: { type: 'integer' } },
        extra: { type: 'object' },
      },
    };
    const fields = formFields(schema);
    expect(fields[0]).toMatchObject({ kind: 'group', label: 'beneficiary', required: true });
    expect(leafFields(fields).map((one) => [one.key, one.label, one.kind])).toEqual([
      ['/beneficiary/iban', 'beneficiary.iban', 'text'],
      ['/beneficiary/name', 'beneficiary.name', 'text'],
      ['/payer/id', 'payer.id', 'text'],
      ['/per_year', 'per_year', 'select'],
      ['/ratio', 'ratio', 'text'],
      ['/tags', 'tags', 'list'],
      ['/counts', 'counts', 'list'],
      ['/extra', 'extra', 'json'],
    ]);
    expect(field(fields, '/ratio').hints).toEqual(['> 0', '≤ 1']);
    expect(field(fields, '/tags').hints).toEqual([
      'at most 3 items',
      'comma-separated, or a JSON array',
    ]);
    const values = {
      ...formValues(fields, {}),
      '/beneficiary/iban': 'DE89370400440532013000',
      '/per_year': '4',
      '/ratio': '0.25',
      '/tags': 'a, b',
      '/counts': '[1, 2]',
      '/extra': '{"k": "v"}',
    };
    expect(formInputs(fields, values)).toEqual({
      ok: true,
      inputs: {
        beneficiary: { iban: 'DE89370400440532013000' },
        per_year: 4,
        ratio: 0.25,
        tags: ['a', 'b'],
        counts: [1, 2],
        extra: { k: 'v' },
      },
    });
  });

  it('leaves out optional fields left empty and checkboxes never touched', () => {
    const wallet = catalogue.find((entry) => entry.id === 'wallet-delivery@v1')!;
    const fields = formFields(wallet.schema);
    // Required texts are sent as they are (the API names what is missing or wrong).
    expect(formInputs(fields, formValues(fields, {}))).toEqual({
      ok: true,
      inputs: { amount: '', destination_wallet_address: '' },
    });
    const bridge = formFields(catalogue.find((entry) => entry.id === 'bridge-routing@v1')!.schema);
    expect(formValues(bridge, {})['/accept_wrapped']).toBeNull();
    expect(formInputs(bridge, { '/accept_wrapped': false })).toEqual({
      ok: true,
      inputs: { accept_wrapped: false, amount: '', destination_address: '' },
    });
  });

  it('refuses text that does not fit the type, naming the field', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        ratio: { type: 'number' },
        tags: { type: 'array', items: { type: 'integer' } },
        extra: {},
        amount: { type: 'string', format: 'money' },
      },
    };
    const fields = formFields(schema);
    expect(
      formInputs(fields, {
        '/count': '1.5',
        '/ratio': '1,5',
        '/tags': '1, two',
        '/extra': '{',
        '/amount': '1.50',
      }),
    ).toEqual({
      ok: false,
      errors: [
        { key: '/count', message: 'must be a whole number' },
        { key: '/ratio', message: 'must be a number' },
        {
          key: '/tags',
          message: 'must be whole numbers, comma-separated or as a JSON array',
        },
        { key: '/extra', message: 'must be JSON' },
      ],
    });
    expect(formInputs(fields, { '/count': '9007199254740993' })).toMatchObject({ ok: false });
  });

  it('keeps lists readable when they read back the same, else JSON', () => {
    expect(listText(['a', 'b'])).toBe('a, b');
    expect(listText([1, 2.5, -3])).toBe('1, 2.5, -3');
    expect(listText([true, false])).toBe('true, false');
    expect(listText([])).toBe('[]');
    expect(listText(['a,b', 'c'])).toBe('["a,b","c"]');
    expect(listText([' a'])).toBe('[" a"]');
    expect(listText(['[x]'])).toBe('["[x]"]');
    expect(parseList(' a ,b', 'string')).toEqual({ value: ['a', 'b'] });
    expect(parseList('', 'string')).toEqual({ value: undefined });
    expect(parseList('a,,b', 'string')).toHaveProperty('error');
    expect(parseList('[1, "2"]', 'integer')).toHaveProperty('error');
    expect(parseList('yes', 'boolean')).toHaveProperty('error');
  });

  it('places API problems next to the field their pointer names', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        amount: { type: 'string' },
        'a/b': { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        beneficiary: { type: 'object', properties: { iban: { type: 'string' } } },
      },
    };
    const fields = formFields(schema);
    const problem = {
      code: 'invalid_inputs',
      errors: [
        { pointer: '/inputs/amount', code: 'invalid_input', message: 'must be a positive amount' },
        { pointer: '/inputs/a~1b', code: 'missing_input', message: 'is required' },
        { pointer: '/inputs/tags/2', code: 'invalid_input', message: 'is too long' },
        { pointer: '/inputs/beneficiary', code: 'invalid_input', message: 'must be object' },
        { pointer: '/inputs/beneficiary/iban', code: 'invalid_input', message: 'bad IBAN' },
        { pointer: '/inputs/unknown', code: 'unknown_input', message: 'is not an input' },
        { pointer: '/scenario_id', code: 'invalid_request', message: 'is unknown' },
        { pointer: 7, message: 'ignored' },
      ],
    };
    const placed = placeProblems(fields, problemFields(problem));
    const messages = (list: readonly { pointer: string; message: string }[]) =>
      list.map(({ pointer, message }) => `${pointer} ${message}`);
    expect(
      Object.fromEntries([...placed.byKey].map(([key, list]) => [key, messages(list)])),
    ).toEqual({
      '/amount': ['/inputs/amount must be a positive amount'],
      '/a~1b': ['/inputs/a~1b is required'],
      '/tags': ['/inputs/tags/2 is too long'],
      '/beneficiary': ['/inputs/beneficiary must be object'],
      '/beneficiary/iban': ['/inputs/beneficiary/iban bad IBAN'],
    });
    expect(messages(placed.other)).toEqual([
      '/inputs/unknown is not an input',
      '/scenario_id is unknown',
    ]);
    expect(problemFields(null)).toEqual([]);
  });
});

// ---- properties ------------------------------------------------------------------------

/** A generated value, and whether the form shows anything for it (not just empty text). */
interface Generated {
  json: Json;
  shown: boolean;
}

/**
 * A property schema and values it accepts. An optional object is present in the inputs
 * only when the form shows something of it (else it reads as left out): `value(false)`
 * generates only such values, and is null when there are none (`canShow` false).
 */
interface Sample {
  schema: JsonSchema;
  canShow: boolean;
  value: (required: boolean) => fc.Arbitrary<Generated> | null;
}

const scalarOf = (type: 'string' | 'integer' | 'number' | 'boolean'): fc.Arbitrary<Json> => {
  switch (type) {
    case 'string':
      return fc.string({ unit: 'grapheme' });
    case 'integer':
      return fc.maxSafeInteger();
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0));
    case 'boolean':
      return fc.boolean();
  }
};

const scalarType = fc.constantFrom('string', 'integer', 'number', 'boolean' as const);

const propertyName = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('__proto__', 'constructor', 'a/b', 'a~b', 'a.b', ''),
);

const shown = (json: fc.Arbitrary<Json>): fc.Arbitrary<Generated> =>
  json.map((value) => ({ json: value, shown: true }));

const leaf = (schema: JsonSchema, value: (required: boolean) => fc.Arbitrary<Generated>) =>
  ({ schema, canShow: true, value }) satisfies Sample;

/** Every kind of property the form knows, nested objects included. */
const sample: fc.Memo<Sample> = fc.memo((depth) => {
  const leaves: fc.Arbitrary<Sample>[] = [
    scalarType.map((type) =>
      leaf({ type }, (required) =>
        // An optional text left empty is left out.
        type === 'string'
          ? (required ? fc.string() : fc.string({ minLength: 1 })).map((text) => ({
              json: text,
              shown: text !== '',
            }))
          : shown(scalarOf(type)),
      ),
    ),
    fc
      .uniqueArray(fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)), {
        minLength: 1,
        maxLength: 5,
        selector: (value) => JSON.stringify(value),
      })
      .map((choices) => leaf({ enum: choices }, () => shown(fc.constantFrom(...choices)))),
    scalarType.map((type) =>
      leaf({ type: 'array', items: { type } }, () =>
        shown(fc.array(scalarOf(type), { maxLength: 4 })),
      ),
    ),
    fc.constant(
      leaf({}, () =>
        shown(fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as Json)),
      ),
    ),
  ];
  if (depth <= 1) return fc.oneof(...leaves);
  return fc.oneof(...leaves, objectSample(depth - 1));
});

function objectSample(depth: number): fc.Arbitrary<Sample> {
  return fc
    .uniqueArray(fc.tuple(propertyName, sample(depth), fc.boolean()), {
      maxLength: 5,
      selector: ([name]) => name,
    })
    .map((properties): Sample => {
      const schemaProperties: Record<string, JsonSchema> = {};
      for (const [name, property] of properties) defineOwn(schemaProperties, name, property.schema);
      const mandatory = properties.filter(([, , required]) => required);
      const optional = properties.filter(([, property, required]) => !required && property.canShow);
      const canShow = [...mandatory, ...optional].some(([, property]) => property.canShow);
      return {
        schema: {
          type: 'object',
          properties: schemaProperties,
          required: mandatory.map(([name]) => name),
        },
        canShow,
        value: (required) => {
          if (!required && !canShow) return null;
          const object = fc
            .subarray(optional)
            .chain((chosen) =>
              fc.tuple(
                ...mandatory.map(([name, property]) => member(name, property.value(true)!)),
                ...chosen.map(([name, property]) => member(name, property.value(false)!)),
              ),
            )
            .map((entries) => {
              const json: JsonObject = {};
              for (const [name, value] of entries) defineOwn(json, name, value.json);
              return { json, shown: entries.some(([, value]) => value.shown) };
            });
          return required ? object : object.filter((value) => value.shown);
        },
      };
    });
}

const member = (name: string, value: fc.Arbitrary<Generated>) =>
  value.map((one) => [name, one] as const);

/** Sets an own enumerable property, even `__proto__`. */
function defineOwn(object: object, name: string, value: unknown): void {
  Object.defineProperty(object, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

describe('schema form properties', () => {
  it('round-trips any inputs of any catalogue scenario, changed anywhere', () => {
    const changed = fc
      .constantFrom(...catalogue)
      .chain(({ schema, example }) => {
        const properties = schema.properties as Record<string, JsonSchema>;
        const required = schema.required as string[];
        const overrides = Object.entries(properties).map(([name, property]) => {
          const optional = !required.includes(name);
          const value: fc.Arbitrary<Json> = Array.isArray(property.enum)
            ? fc.constantFrom(...(property.enum as Json[]))
            : property.type === 'boolean'
              ? fc.boolean()
              : property.type === 'integer'
                ? fc.maxSafeInteger()
                : optional
                  ? fc.string({ minLength: 1 })
                  : fc.string();
          return fc
            .option(
              fc.oneof(
                value.map((one) => ({ set: one })),
                fc.constant(optional ? 'drop' : 'keep'),
              ),
              { nil: 'keep' as const },
            )
            .map((change) => [name, change] as const);
        });
        return fc.tuple(fc.constant(schema), fc.constant(example), ...overrides);
      })
      .map(([schema, example, ...changes]) => {
        const inputs: JsonObject = { ...example };
        for (const [name, change] of changes) {
          if (change === 'drop') delete inputs[name];
          else if (change !== 'keep') inputs[name] = change.set;
        }
        return { schema, inputs };
      });
    fc.assert(
      fc.property(changed, ({ schema, inputs }) => {
        expect(roundTrip(schema, inputs)).toEqual({ ok: true, inputs });
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips any value of any schema it builds a form for', () => {
    const pairs = objectSample(3).chain((root) =>
      root
        .value(true)!
        .map((inputs) => ({ schema: root.schema, inputs: inputs.json as JsonObject })),
    );
    fc.assert(
      fc.property(pairs, ({ schema, inputs }) => {
        const result = roundTrip(schema, inputs);
        expect(result).toEqual({ ok: true, inputs });
        // The same own keys (in schema order), `__proto__` included, never an inherited one.
        const keys = (value: Json): unknown =>
          typeof value === 'object' && value !== null && !Array.isArray(value)
            ? Object.keys(value)
                .sort()
                .map((key) => [key, keys(value[key]!)])
            : null;
        expect(keys((result as { inputs: JsonObject }).inputs)).toEqual(keys(inputs));
      }),
      { numRuns: 300 },
    );
  });
});
