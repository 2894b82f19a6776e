/** A regular expression inside a JSON Schema, and where it sits. */
export interface SchemaPattern {
  readonly pattern: string;
  /** Path inside the schema: to the `pattern` value, or to the `patternProperties` key. */
  readonly path: readonly (string | number)[];
  /** True when the pattern is a `patternProperties` key rather than a `pattern` value. */
  readonly isKey: boolean;
}

type Path = readonly (string | number)[];

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMAS = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'contentSchema',
];

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function visit(schema: unknown, path: Path, found: SchemaPattern[]): void {
  if (!isObject(schema)) return;
  if (typeof schema.pattern === 'string')
    found.push({ pattern: schema.pattern, path: [...path, 'pattern'], isKey: false });
  if (isObject(schema.patternProperties)) {
    for (const key of Object.keys(schema.patternProperties))
      found.push({ pattern: key, path: [...path, 'patternProperties', key], isKey: true });
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = schema[keyword];
    if (!isObject(map)) continue;
    for (const [name, child] of Object.entries(map)) visit(child, [...path, keyword, name], found);
  }
  for (const keyword of [...SCHEMA_LISTS, ...SCHEMAS]) {
    const child = schema[keyword];
    if (Array.isArray(child))
      child.forEach((item, index) => visit(item, [...path, keyword, index], found));
    else visit(child, [...path, keyword], found);
  }
}

/**
 * Every regular expression of a JSON Schema (`pattern` values and `patternProperties`
 * keys), found through the keywords that hold subschemas; `enum`, `const`, `default` and
 * `examples` hold data, not schemas, and are not searched.
 */
export function schemaPatterns(schema: unknown): SchemaPattern[] {
  const found: SchemaPattern[] = [];
  visit(schema, [], found);
  return found;
}
