import fc from 'fast-check';
import type { CompiledScenario } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import { FORMAT_ARBITRARIES } from './format-arbitraries.js';
import { patternArbitrary } from './pattern-arbitrary.js';

type Schema = Readonly<Record<string, unknown>>;

/**
 * A value for one JSON Schema node (the subset scenario input schemas use).
 *
 * @example
 * ```ts
 * fc.sample(valueArbitrary({ type: 'string', format: 'iban' }), 1); // ['DE…']
 * ```
 */
export function valueArbitrary(schema: Schema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case 'string': {
      const format =
        typeof schema.format === 'string' ? FORMAT_ARBITRARIES[schema.format] : undefined;
      if (format) return format;
      // RE2 patterns, translated for fast-check; every string is checked with RE2.
      if (typeof schema.pattern === 'string') return patternArbitrary(schema.pattern);
      const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 40;
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) });
    }
    case 'integer':
      return fc.integer({
        min: typeof schema.minimum === 'number' ? schema.minimum : -1000,
        max: typeof schema.maximum === 'number' ? schema.maximum : 100_000,
      });
    case 'number':
      return fc.double({
        min: typeof schema.minimum === 'number' ? schema.minimum : -1e6,
        max: typeof schema.maximum === 'number' ? schema.maximum : 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      return fc.array(valueArbitrary(items), {
        minLength: typeof schema.minItems === 'number' ? schema.minItems : 0,
        maxLength: typeof schema.maxItems === 'number' ? schema.maxItems : 4,
      });
    }
    case 'object':
      return objectArbitrary(schema, {});
    default:
      return fc.constant(null);
  }
}

function objectArbitrary(
  schema: Schema,
  example: Record<string, unknown>,
  boundaries: ReadonlyMap<string, readonly string[]> = new Map(),
): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const values = boundaries.get(name) ?? [];
    // Amounts at and beside the literals rules compare against put each rule on both sides.
    const generated =
      values.length === 0
        ? valueArbitrary(property)
        : fc.oneof(valueArbitrary(property), fc.constantFrom(...values));
    // Mixing in the example's value keeps runs reaching deep steps while exploring the rest.
    fields[name] = name in example ? fc.oneof(fc.constant(example[name]), generated) : generated;
  }
  const requiredKeys = Object.keys(fields).filter((name) => required.has(name));
  return fc.record(fields, { requiredKeys });
}

/**
 * Valid inputs for a scenario, derived from its input JSON Schema and mixed with its
 * example inputs and with `boundaries` (field → values, e.g. `boundaryInputs`); anything
 * the scenario's own validator refuses is filtered out.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(inputsArbitrary(compiled), (inputs) => compiled.inputs.validate(inputs).length === 0));
 * ```
 */
export function inputsArbitrary(
  compiled: CompiledScenario,
  boundaries?: ReadonlyMap<string, readonly string[]>,
): fc.Arbitrary<JsonObject> {
  const schema = compiled.definition.inputs as Schema;
  const example = compiled.definition.example_inputs;
  return fc
    .oneof(
      { weight: 1, arbitrary: fc.constant(example) },
      { weight: 2, arbitrary: objectArbitrary(schema, example, boundaries) },
    )
    .filter((inputs) => compiled.inputs.validate(inputs).length === 0) as fc.Arbitrary<JsonObject>;
}
