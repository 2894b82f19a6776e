import fc from 'fast-check';
import type { CompiledScenario } from '@programrun/dsl';
import { CheckError } from './check-error.js';
import { inputsArbitrary } from './inputs-arbitrary.js';
import { FORMAT_NEAR_MISSES, wrongTypeValues, type NearMissValue } from './near-miss-values.js';
import { patternMatcher } from './pattern-arbitrary.js';

type Schema = Readonly<Record<string, unknown>>;

/** Inputs with exactly one field broken, and which field and how. */
export interface NearMissInputs {
  readonly inputs: Readonly<Record<string, unknown>>;
  /** JSON pointer of the broken field inside the inputs, e.g. `/amount`. */
  readonly pointer: string;
  /** What was broken, e.g. `money with 3 decimals` or `missing required field`. */
  readonly breaks: string;
}

/** One way to break one field: remove it, or give it one of `values`. */
interface Breakage {
  readonly path: readonly string[];
  readonly values: (valid: unknown) => readonly NearMissValue[];
  readonly remove?: true;
}

const REMOVED = 'missing required field';
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** Keywords that can widen what a field accepts: such fields keep only remove/extra breaks. */
const WIDENING = ['anyOf', 'oneOf', 'not', '$ref', '$dynamicRef'];
const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

function outOfEnum(allowed: readonly unknown[]): NearMissValue[] {
  const first = allowed[0];
  const candidates =
    typeof first === 'string'
      ? [`${first}_other`, first.toUpperCase(), `${first} `, '']
      : typeof first === 'number'
        ? [Math.max(...allowed.filter((v): v is number => typeof v === 'number')) + 1, -1]
        : ['other'];
  return candidates
    .filter((candidate) => !allowed.some((value) => same(value, candidate)))
    .slice(0, 1)
    .map((value) => ({ breaks: 'value outside the enum', value }));
}

function stringBreaks(schema: Schema, valid: unknown): NearMissValue[] {
  const text = typeof valid === 'string' ? valid : undefined;
  const values: NearMissValue[] = [];
  const format = typeof schema.format === 'string' ? FORMAT_NEAR_MISSES[schema.format] : undefined;
  if (format) values.push(...format(text));
  if (typeof schema.pattern === 'string') {
    // Matched with RE2, as the input validator does.
    const matches = patternMatcher(schema.pattern);
    const candidates = ['', '!', ' ', ...(text === undefined ? [] : [`${text}!`, `!${text}`])];
    const value = candidates.find((candidate) => !matches(candidate));
    if (value !== undefined)
      values.push({ breaks: `string not matching ${schema.pattern}`, value });
  }
  if (typeof schema.maxLength === 'number')
    values.push({
      breaks: `longer than ${schema.maxLength}`,
      value: 'x'.repeat(schema.maxLength + 1),
    });
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    values.push({
      breaks: `shorter than ${schema.minLength}`,
      value: 'x'.repeat(schema.minLength - 1),
    });
  return values;
}

function numberBreaks(schema: Schema): NearMissValue[] {
  const values: NearMissValue[] = [];
  if (typeof schema.minimum === 'number')
    values.push({ breaks: `below the minimum ${schema.minimum}`, value: schema.minimum - 1 });
  if (typeof schema.maximum === 'number')
    values.push({ breaks: `above the maximum ${schema.maximum}`, value: schema.maximum + 1 });
  if (typeof schema.exclusiveMinimum === 'number')
    values.push({ breaks: 'at the exclusive minimum', value: schema.exclusiveMinimum });
  if (typeof schema.exclusiveMaximum === 'number')
    values.push({ breaks: 'at the exclusive maximum', value: schema.exclusiveMaximum });
  return values;
}

/** The ways to break the field `schema` describes, given its valid value. */
function fieldBreaks(schema: Schema, valid: unknown): NearMissValue[] {
  const values: NearMissValue[] = [];
  if ('const' in schema)
    values.push({
      breaks: 'not the constant',
      value: same(schema.const, 'other') ? 'else' : 'other',
    });
  if (Array.isArray(schema.enum)) values.push(...outOfEnum(schema.enum));
  if (schema.type !== undefined) values.push(...wrongTypeValues(schema.type));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (
    types.includes('string') ||
    (schema.type === undefined && ('format' in schema || 'pattern' in schema))
  )
    values.push(...stringBreaks(schema, valid));
  if (types.includes('integer') || types.includes('number')) values.push(...numberBreaks(schema));
  if (types.includes('array') && Array.isArray(valid) && valid.length > 0) {
    if (typeof schema.maxItems === 'number')
      values.push({
        breaks: `more than ${schema.maxItems} items`,
        value: Array.from({ length: schema.maxItems + 1 }, (): unknown => valid[0]),
      });
  }
  if (types.includes('array') && typeof schema.minItems === 'number' && schema.minItems > 0)
    values.push({ breaks: `fewer than ${schema.minItems} items`, value: [] });
  return values;
}

/** Every breakage of an object schema at `path`; nested objects only when required. */
function breakagesOf(schema: Schema, path: readonly string[]): Breakage[] {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const breakages: Breakage[] = required.map((name) => ({
    path: [...path, name],
    values: () => [{ breaks: REMOVED, value: undefined }],
    remove: true,
  }));
  if (schema.additionalProperties === false && schema.patternProperties === undefined) {
    let extra = 'unexpected_input';
    while (extra in properties) extra += '_x';
    breakages.push({
      path: [...path, extra],
      values: () => [{ breaks: 'property the schema does not allow', value: 'x' }],
    });
  }
  for (const [name, property] of Object.entries(properties)) {
    if (!isSchema(property) || WIDENING.some((keyword) => keyword in property)) continue;
    const fieldPath = [...path, name];
    if (fieldBreaks(property, undefined).length > 0)
      breakages.push({ path: fieldPath, values: (valid) => fieldBreaks(property, valid) });
    if (property.type === 'object' && required.includes(name))
      breakages.push(...breakagesOf(property, fieldPath));
  }
  return breakages;
}

const pointerOf = (path: readonly string[]) =>
  path.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const token of path) current = isSchema(current) ? current[token] : undefined;
  return current;
}

/** A copy of `inputs` with the field at `path` set to `value`, or removed. */
function withField(
  inputs: Readonly<Record<string, unknown>>,
  path: readonly string[],
  value: unknown,
  remove: boolean,
): Record<string, unknown> {
  const copy = structuredClone(inputs) as Record<string, unknown>;
  let parent = copy;
  for (const token of path.slice(0, -1)) parent = parent[token] as Record<string, unknown>;
  const last = path.at(-1)!;
  if (remove) delete parent[last];
  else parent[last] = value;
  return copy;
}

/**
 * Near-miss invalid inputs: valid inputs (from `inputsArbitrary`) with exactly one field
 * broken in a way the input schema forbids whatever else it says: a required field
 * missing, a value of the wrong JSON type, a bad format (money with 3 decimals or a
 * minus sign, an IBAN with wrong check digits, an address with a broken checksum…), a
 * string that misses its pattern or length, a number out of range, a value outside the
 * enum or not the const, or an extra property when `additionalProperties` is false.
 * Fields whose schema uses `anyOf`, `oneOf`, `not` or `$ref` are only removed, never
 * altered, so every value is one the scenario must refuse. Throws `no_near_misses` when
 * the schema leaves nothing to break.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(invalidInputsArbitrary(compiled), ({ inputs, pointer }) =>
 *   compiled.inputs.validate(inputs).some((issue) => issue.pointer === pointer)));
 * ```
 */
export function invalidInputsArbitrary(compiled: CompiledScenario): fc.Arbitrary<NearMissInputs> {
  const schema = compiled.definition.inputs as Schema;
  const breakages = breakagesOf(schema, []);
  if (breakages.length === 0) {
    throw new CheckError(
      'no_near_misses',
      `The input schema of ${compiled.id} has no required field, no constraint and allows extra properties: there is nothing to break.`,
    );
  }
  const example = compiled.definition.example_inputs;
  return fc
    .tuple(inputsArbitrary(compiled), fc.nat({ max: breakages.length - 1 }), fc.nat())
    .map(([inputs, index, pick]): NearMissInputs => {
      const breakage = breakages[index]!;
      const valid = valueAt(inputs, breakage.path) ?? valueAt(example, breakage.path);
      const values = breakage.values(valid);
      const chosen = values[pick % values.length]!;
      return {
        inputs: withField(inputs, breakage.path, chosen.value, breakage.remove === true),
        pointer: pointerOf(breakage.path),
        breaks: chosen.breaks,
      };
    });
}
