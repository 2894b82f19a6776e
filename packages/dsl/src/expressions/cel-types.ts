import { base64 } from '@scure/base';
import { Money } from '../money/money.js';

/** A CEL type string ('int', 'string', 'Money', 'dyn', …) or a nested field schema. */
export type CelShape = string | { readonly [field: string]: CelShape };

type JsonSchemaNode = Readonly<Record<string, unknown>>;

const SCALAR_TYPES: Readonly<Record<string, string>> = {
  string: 'string',
  integer: 'int',
  number: 'double',
  boolean: 'bool',
};

/**
 * The CEL shape of a JSON Schema: objects with `properties` become nested schemas,
 * scalars their CEL type, anything else (unions, maps, tuples) `dyn`.
 */
export function celShapeOfJsonSchema(schema: unknown): CelShape {
  if (typeof schema !== 'object' || schema === null) return 'dyn';
  const node = schema as JsonSchemaNode;
  const type = node.type;
  if (type === 'object' && typeof node.properties === 'object' && node.properties !== null) {
    const properties = node.properties as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [name, celShapeOfJsonSchema(child)]),
    );
  }
  if (typeof type === 'string' && SCALAR_TYPES[type]) return SCALAR_TYPES[type];
  if (type === 'array') {
    const items = celShapeOfJsonSchema(node.items);
    return typeof items === 'string' && items !== 'dyn' ? `list<${items}>` : 'list<dyn>';
  }
  return 'dyn';
}

/** Types whose stored JSON form needs converting back before CEL sees it. */
const REVIVERS: Readonly<Record<string, (value: unknown) => unknown>> = {
  int: (value) => (typeof value === 'number' || typeof value === 'string' ? BigInt(value) : value),
  uint: (value) => (typeof value === 'number' || typeof value === 'string' ? BigInt(value) : value),
  Money: (value) => (typeof value === 'string' ? Money.parse(value) : value),
};

/**
 * Converts JSON data to the values CEL expects for `shape`: integers become BigInt,
 * money strings typed `Money` become {@link Money}. Missing fields stay missing.
 */
export function reviveForCel(value: unknown, shape: CelShape): unknown {
  if (typeof shape === 'string') {
    if (shape === 'list<int>' && Array.isArray(value))
      return value.map((item) => REVIVERS.int!(item));
    return REVIVERS[shape]?.(value) ?? value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [name, fieldValue] of Object.entries(value)) {
    const fieldShape = shape[name];
    result[name] = fieldShape === undefined ? fieldValue : reviveForCel(fieldValue, fieldShape);
  }
  return result;
}

/**
 * The JSON form of a CEL result, for storing in the run context and evidence:
 * BigInt becomes a number (or a string beyond 2^53), Money its decimal string,
 * timestamps ISO strings, bytes base64, CEL maps plain objects.
 */
export function toJsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Money) return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return base64.encode(value);
  if (value instanceof Map) {
    return Object.fromEntries(
      [...value.entries()].map(([key, item]) => [String(key), toJsonValue(item)]),
    );
  }
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJsonValue(item)]));
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}

/** Inferred CEL types that survive a JSON round trip with {@link reviveForCel}. */
export function storableCelType(type: string): string {
  return ['int', 'uint', 'double', 'string', 'bool', 'Money'].includes(type) ? type : 'dyn';
}
