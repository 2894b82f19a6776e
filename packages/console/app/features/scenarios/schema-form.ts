// A form from a scenario's inputs JSON Schema, as data: the fields (one per property,
// nested objects as groups), their values prefilled from example inputs, and the inputs
// object back from the values. Pure (no DOM), unit-tested in test/features-schema-form.test.ts.
//
// Values are what the controls hold: text for text fields, selects, lists and JSON, and
// `true`/`false`/`null` (never touched) for checkboxes. Strings stay strings (money is a
// decimal string in every catalogue scenario and never becomes a JS number); a number is
// produced only where the schema says `integer` or `number`.
import type { Json } from '../../api/types.js';
import { fieldHints } from './schema-hints.js';
import { listText, parseList, type ScalarType } from './schema-list.js';

/** A JSON Schema, as far as the form reads it. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A JSON object (the run's inputs). */
export type JsonObject = { [key: string]: Json };

/** One choice of a select: the control's value and what it stands for. */
export interface EnumOption {
  readonly value: string;
  readonly label: string;
  /** The JSON value sent; `undefined` for the "not set" choice. */
  readonly json: Json | undefined;
}

interface FieldBase {
  /** The property path from the inputs root. */
  readonly path: readonly string[];
  /** The JSON pointer of the property in the inputs (`/beneficiary/iban`): the value key. */
  readonly key: string;
  /** The visible name: the property path, dotted (`beneficiary.iban`). */
  readonly label: string;
  readonly required: boolean;
  readonly description: string | null;
  /** Short constraints to show next to the control (format, length, range, pattern…). */
  readonly hints: readonly string[];
}

/** A field of the form. */
export type FormField =
  | (FieldBase & { readonly kind: 'text'; readonly type: 'string' | 'integer' | 'number' })
  | (FieldBase & { readonly kind: 'select'; readonly options: readonly EnumOption[] })
  | (FieldBase & { readonly kind: 'checkbox' })
  | (FieldBase & { readonly kind: 'list'; readonly itemType: ScalarType })
  | (FieldBase & { readonly kind: 'json' })
  | (FieldBase & { readonly kind: 'group'; readonly fields: readonly FormField[] });

/** What the controls hold, by field key. */
export type FormValues = Readonly<Record<string, string | boolean | null>>;

/** A value the form could not turn into JSON, by field key. */
export interface FieldError {
  readonly key: string;
  readonly message: string;
}

/** The inputs from the values, or what is wrong with them. */
export type FormInputs =
  | { readonly ok: true; readonly inputs: JsonObject }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

const SCALARS: readonly string[] = ['string', 'integer', 'number', 'boolean'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isJsonObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The own property `name` (never one inherited, such as `__proto__` or `constructor`). */
const own = (object: JsonObject, name: string): Json | undefined =>
  Object.hasOwn(object, name) ? object[name] : undefined;

/** Sets an own property, even one named `__proto__`. */
const setOwn = (object: JsonObject, name: string, value: Json): void => {
  Object.defineProperty(object, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
};

/** RFC 6901 pointer of a path. */
export function pointerOf(path: readonly string[]): string {
  return path.map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The select choices of an enum: plain text when that is unambiguous, else JSON text. */
function enumOptions(values: readonly unknown[]): EnumOption[] {
  const json = values as Json[];
  const plain = json.every((value) => typeof value === 'string');
  const texts = json.map((value) =>
    plain ? (value as string) : typeof value === 'string' ? value : JSON.stringify(value),
  );
  const unambiguous = new Set(['', ...texts]).size === texts.length + 1;
  const options = json.map((value, index) => {
    const text = unambiguous ? texts[index]! : JSON.stringify(value);
    return { value: text, label: text, json: value };
  });
  return [{ value: '', label: '(not set)', json: undefined }, ...options];
}

function fieldOf(path: readonly string[], schema: unknown, required: boolean): FormField {
  const node = isObject(schema) ? schema : {};
  const base: FieldBase = {
    path,
    key: pointerOf(path),
    label: path.join('.'),
    required,
    description: typeof node.description === 'string' ? node.description : null,
    hints: fieldHints(node),
  };
  const type = node.type;
  if (Array.isArray(node.enum) && node.enum.length > 0)
    return { ...base, kind: 'select', options: enumOptions(node.enum) };
  if (type === 'boolean') return { ...base, kind: 'checkbox' };
  if (type === 'string' || type === 'integer' || type === 'number')
    return { ...base, kind: 'text', type };
  if (type === 'object' && isObject(node.properties)) {
    return { ...base, kind: 'group', fields: fieldsOf(path, node) };
  }
  const items = isObject(node.items) ? node.items : null;
  if (type === 'array' && typeof items?.type === 'string' && SCALARS.includes(items.type)) {
    const itemType = items.type as ScalarType;
    return {
      ...base,
      kind: 'list',
      itemType,
      hints: [...base.hints, 'comma-separated, or a JSON array'],
    };
  }
  return { ...base, kind: 'json', hints: [...base.hints, 'JSON'] };
}

function fieldsOf(path: readonly string[], schema: Record<string, unknown>): FormField[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return Object.entries(properties).map(([name, property]) =>
    fieldOf([...path, name], property, required.includes(name)),
  );
}

/** The fields of an inputs schema (an object schema), in the order of its properties. */
export function formFields(schema: JsonSchema): FormField[] {
  return fieldsOf([], schema);
}

/** Every field that holds a value (groups flattened), in order. */
export function leafFields(fields: readonly FormField[]): FormField[] {
  return fields.flatMap((field) => (field.kind === 'group' ? leafFields(field.fields) : [field]));
}

function valueOf(field: FormField, value: Json | undefined): string | boolean | null {
  switch (field.kind) {
    case 'checkbox':
      return typeof value === 'boolean' ? value : null;
    case 'select': {
      if (value === undefined) return '';
      const text = JSON.stringify(value);
      const option = field.options.find(
        (choice) => choice.json !== undefined && JSON.stringify(choice.json) === text,
      );
      return option?.value ?? '';
    }
    case 'text':
      if (value === undefined || value === null) return '';
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'list':
      return Array.isArray(value) ? listText(value) : '';
    case 'json':
    case 'group':
      return value === undefined ? '' : JSON.stringify(value, null, 2);
  }
}

/** The values of the fields for `inputs` (e.g. a scenario's `example_inputs`). */
export function formValues(fields: readonly FormField[], inputs: JsonObject = {}): FormValues {
  const values: Record<string, string | boolean | null> = {};
  const visit = (list: readonly FormField[], object: JsonObject): void => {
    for (const field of list) {
      const value = own(object, field.path.at(-1)!);
      if (field.kind === 'group') visit(field.fields, isJsonObject(value) ? value : {});
      else values[field.key] = valueOf(field, value);
    }
  };
  visit(fields, inputs);
  return values;
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

type Parsed = { value: Json | undefined } | { error: string };

/** The JSON value of one control; `undefined` leaves the property out. */
function parseValue(field: FormField, raw: string | boolean | null | undefined): Parsed {
  if (field.kind === 'checkbox') return { value: typeof raw === 'boolean' ? raw : undefined };
  const text = typeof raw === 'string' ? raw : '';
  switch (field.kind) {
    case 'select': {
      const option = field.options.find((choice) => choice.value === text);
      return option ? { value: option.json } : { error: 'is not one of the choices' };
    }
    case 'text': {
      // An optional text left empty is left out; a required one is sent as it is.
      if (field.type === 'string')
        return { value: text === '' && !field.required ? undefined : text };
      const trimmed = text.trim();
      if (trimmed === '') return { value: undefined };
      if (field.type === 'integer') {
        const number = Number(trimmed);
        return INTEGER.test(trimmed) && Number.isSafeInteger(number)
          ? { value: number }
          : { error: 'must be a whole number' };
      }
      const number = Number(trimmed);
      return NUMBER.test(trimmed) && Number.isFinite(number)
        ? { value: number }
        : { error: 'must be a number' };
    }
    case 'list':
      return parseList(text, field.itemType);
    case 'json':
    case 'group': {
      if (text.trim() === '') return { value: undefined };
      try {
        return { value: JSON.parse(text) as Json };
      } catch {
        return { error: 'must be JSON' };
      }
    }
  }
}

/** True when a control of the field (or of the group) holds something. */
function filledIn(field: FormField, values: FormValues): boolean {
  if (field.kind === 'group') return field.fields.some((one) => filledIn(one, values));
  const value = values[field.key];
  return typeof value === 'boolean' || (typeof value === 'string' && value !== '');
}

/**
 * The inputs object of the values: each property the values set, in schema order; a
 * property left empty (or a checkbox never touched) is left out, except a required text,
 * and so is an optional group none of whose controls holds anything. Text that does not fit the
 * field's type (a whole number, a number, a list, JSON) is an error of that field.
 */
export function formInputs(fields: readonly FormField[], values: FormValues): FormInputs {
  const errors: FieldError[] = [];
  const build = (list: readonly FormField[]): JsonObject => {
    const object: JsonObject = {};
    for (const field of list) {
      const name = field.path.at(-1)!;
      if (field.kind === 'group') {
        if (field.required || filledIn(field, values)) setOwn(object, name, build(field.fields));
        continue;
      }
      const parsed = parseValue(field, values[field.key]);
      if ('error' in parsed) errors.push({ key: field.key, message: parsed.error });
      else if (parsed.value !== undefined) setOwn(object, name, parsed.value);
    }
    return object;
  };
  const inputs = build(fields);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, inputs };
}
