// Renders the "Field reference" of docs/guides/writing-scenarios.md from the scenario JSON
// Schema (itself generated from the zod schema, the source of truth): one table per
// object of the format, with each field's type, whether it is required, its default and
// its description. Only the text between the markers is replaced; the prose around it
// is hand-written.
// Usage: pnpm --filter @programrun/dsl generate:reference [--check]
//   --check             exit 1 (and write nothing) when the guide's section is stale
//   --list-undocumented print the fields whose schema has no description
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scenarioJsonSchema } from '../src/index.js';

/** The guide that holds the generated section, relative to the repository root. */
export const GUIDE = 'docs/guides/writing-scenarios.md';
export const BEGIN_MARKER = '<!-- BEGIN GENERATED: dsl-reference -->';
export const END_MARKER = '<!-- END GENERATED: dsl-reference -->';
/** What to run when the section is stale. */
export const REGENERATE_COMMAND = 'pnpm --filter @programrun/dsl generate:reference';

type Schema = { readonly [key: string]: unknown };

/** String patterns with a name, explained once in the "Value types" table. */
const NAMED_PATTERNS: readonly { name: string; pattern: string; meaning: string }[] = [
  {
    name: 'identifier',
    pattern: '^[a-z][a-z0-9_]{0,62}$',
    meaning:
      'snake_case name of a stage, step, party, rule, control, invariant, alternative or leg; also a flow target (`fault`, `compensate`, `cancel`, `complete` or a step id).',
  },
  {
    name: 'duration',
    pattern: '^P(?!$)(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?$',
    meaning: 'ISO 8601 duration of fixed length: weeks, days, hours, minutes, seconds.',
  },
];

/**
 * One table of the reference: an object of the format. `key` names it uniquely: its path
 * (`stages[].steps[].review`) with the union variant it belongs to in braces
 * (`stages[].steps[]{kind: check}.review`).
 */
interface Section {
  readonly key: string;
  readonly path: string;
  readonly heading: string;
  readonly anchor: string;
  readonly schema: Schema;
  /** An identical object rendered earlier (a compensation handoff is a handoff). */
  readonly sameAs?: { readonly heading: string; readonly anchor: string };
}

/** A field of a section, for the undocumented-field report. */
export interface FieldInfo {
  readonly path: string;
  readonly description: string | undefined;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function schemaList(value: unknown): Schema[] {
  return Array.isArray(value) ? value.filter(isSchema) : [];
}

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

/** Follows a local `$ref` (`#/$defs/name`); other schemas are returned as they are. */
function resolveRef(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    target = isSchema(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return isSchema(target) ? { ...target, ...withoutRef(schema) } : schema;
}

function withoutRef(schema: Schema): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$ref'));
}

function properties(schema: Schema): [string, Schema][] {
  return isSchema(schema.properties)
    ? Object.entries(schema.properties).filter((entry): entry is [string, Schema] =>
        isSchema(entry[1]),
      )
    : [];
}

function isObjectWithFields(schema: Schema): boolean {
  return isSchema(schema.properties);
}

/** The alternatives of a union, if the schema is one. */
function variants(schema: Schema): Schema[] {
  return [...schemaList(schema.oneOf), ...schemaList(schema.anyOf)];
}

/** The property whose `const` tells the variants apart (e.g. `kind`), if there is one. */
function discriminator(options: readonly Schema[]): string | undefined {
  const [first] = options;
  if (!first || options.length < 2) return undefined;
  return properties(first)
    .map(([name]) => name)
    .find((name) => {
      const values = options.map((option) => {
        const property = isSchema(option.properties) ? option.properties[name] : undefined;
        return isSchema(property) ? property.const : undefined;
      });
      return (
        values.every((value) => typeof value === 'string') && new Set(values).size === values.length
      );
    });
}

/** How one variant of a union is named in headings: `kind: check`, or its own fields. */
function variantLabel(option: Schema, options: readonly Schema[], index: number): string {
  const key = discriminator(options);
  const property = key && isSchema(option.properties) ? option.properties[key] : undefined;
  if (key && isSchema(property) && typeof property.const === 'string')
    return `\`${key}: ${property.const}\``;
  if (typeof option.title === 'string') return option.title;
  const others = options.filter((other) => other !== option);
  const own = stringList(option.required).filter(
    (name) => !others.some((other) => isSchema(other.properties) && name in other.properties),
  );
  return own.length > 0
    ? own.map((name) => `\`${name}\``).join(', ')
    : `variant ${String(index + 1)}`;
}

function anchorOf(key: string): string {
  const slug = key
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `ref-${slug || 'scenario'}`;
}

/** The displayed path of a key: `stages[].steps[]{kind: check}.review` → `stages[].steps[].review`. */
function pathOf(key: string): string {
  return key.replace(/\{[^}]*\}/g, '');
}

function childKey(key: string, name: string): string {
  return key ? `${key}.${name}` : name;
}

function variantKey(key: string, label: string): string {
  return `${key}{${label.replace(/`/g, '')}}`;
}

/** Every object of the format with fields, depth first in schema order. */
function collectSections(root: Schema): Section[] {
  const sections: Section[] = [];
  const seen = new Map<string, Section>();

  const add = (schema: Schema, key: string, heading: string): Section => {
    const serialized = JSON.stringify(schema);
    const earlier = seen.get(serialized);
    const section: Section = {
      key,
      path: pathOf(key),
      heading,
      anchor: anchorOf(key),
      schema,
      ...(earlier ? { sameAs: { heading: earlier.heading, anchor: earlier.anchor } } : {}),
    };
    if (!earlier) seen.set(serialized, section);
    sections.push(section);
    return section;
  };

  const visit = (raw: Schema, key: string, within: string): void => {
    const schema = resolveRef(raw, root);
    const options = variants(schema).map((option) => resolveRef(option, root));
    if (options.some(isObjectWithFields)) {
      options.forEach((option, index) => {
        if (!isObjectWithFields(option)) return;
        const label = variantLabel(option, options, index);
        const inner = variantKey(key, label);
        const heading = label.startsWith('`')
          ? `\`${pathOf(key)}\` with ${label}`
          : `\`${pathOf(key)}\`: ${label}`;
        const section = add(option, inner, heading);
        if (!section.sameAs) visitFields(option, inner, label);
      });
      return;
    }
    if (isObjectWithFields(schema)) {
      const title = typeof schema.title === 'string' ? `: ${schema.title}` : '';
      const heading =
        key === ''
          ? 'Scenario (top level)'
          : `\`${pathOf(key)}\`${within ? ` (of ${within})` : title}`;
      const section = add(schema, key, heading);
      if (!section.sameAs) visitFields(schema, key, within);
      return;
    }
    if (isSchema(schema.items)) visit(schema.items, `${key}[]`, within);
    else if (isSchema(schema.additionalProperties))
      visit(schema.additionalProperties, `${key}.<${keyName(schema)}>`, within);
  };

  const visitFields = (schema: Schema, key: string, within: string): void => {
    for (const [name, field] of properties(schema)) visit(field, childKey(key, name), within);
  };

  visit(root, '', '');
  return sections;
}

/** `<id>` for maps keyed by identifiers, `<name>` otherwise. */
function keyName(schema: Schema): string {
  const names = isSchema(schema.propertyNames) ? schema.propertyNames : undefined;
  return names && NAMED_PATTERNS.some((named) => named.pattern === names.pattern) ? 'id' : 'name';
}

function code(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function bound(value: unknown): number | undefined {
  return typeof value === 'number' && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;
}

/** A readable type: `non-empty string`, `integer 1–100`, `array of [object](#…)`, … */
function typeOf(raw: Schema, key: string, root: Schema, anchors: Map<string, Section>): string {
  const schema = resolveRef(raw, root);
  if ('const' in schema) return code(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(code).join(', ')}`;

  const options = variants(schema).map((option) => resolveRef(option, root));
  if (options.length > 0) {
    if (options.some(isObjectWithFields)) {
      const links = options.map((option, index) => {
        const label = variantLabel(option, options, index);
        const section = anchors.get(variantKey(key, label));
        return section ? `[${label}](#${section.anchor})` : label;
      });
      return `one of ${links.join(', ')}`;
    }
    return `one of: ${options.map((option) => typeOf(option, key, root, anchors)).join('; ')}`;
  }

  if (isObjectWithFields(schema)) {
    const section = anchors.get(key);
    return section ? `[object](#${section.anchor})` : 'object';
  }

  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
  switch (type) {
    case 'string': {
      const named = NAMED_PATTERNS.find((candidate) => candidate.pattern === schema.pattern);
      const parts: string[] = [];
      let base = named ? `[${named.name}](#ref-value-types)` : 'string';
      const minLength = bound(schema.minLength);
      const maxLength = bound(schema.maxLength);
      if (!named && minLength === 1 && maxLength === undefined) base = 'non-empty string';
      else {
        if (minLength !== undefined && minLength > 0)
          parts.push(`at least ${String(minLength)} characters`);
        if (maxLength !== undefined) parts.push(`at most ${String(maxLength)} characters`);
      }
      if (!named && typeof schema.pattern === 'string')
        parts.push(`matching ${code(schema.pattern)}`);
      if (typeof schema.format === 'string') parts.push(`format ${code(schema.format)}`);
      return parts.length > 0 ? `${base}, ${parts.join(', ')}` : base;
    }
    case 'integer':
    case 'number': {
      const minimum = bound(schema.minimum);
      const maximum = bound(schema.maximum);
      if (minimum !== undefined && maximum !== undefined)
        return `${type} ${String(minimum)}–${String(maximum)}`;
      if (minimum !== undefined) return `${type} ≥ ${String(minimum)}`;
      if (maximum !== undefined) return `${type} ≤ ${String(maximum)}`;
      return type;
    }
    case 'array': {
      const item = isSchema(schema.items)
        ? typeOf(schema.items, `${key}[]`, root, anchors)
        : 'anything';
      const minItems = bound(schema.minItems) ?? 0;
      const maxItems = bound(schema.maxItems);
      const count = [
        minItems > 1 ? `at least ${String(minItems)}` : '',
        maxItems !== undefined ? `at most ${String(maxItems)}` : '',
      ].filter(Boolean);
      return `${minItems === 1 ? 'non-empty array' : 'array'} of ${item}${
        count.length > 0 ? ` (${count.join(', ')})` : ''
      }`;
    }
    case 'object': {
      const values = schema.additionalProperties;
      if (isSchema(values) && Object.keys(values).length > 0) {
        const names = isSchema(schema.propertyNames)
          ? typeOf(schema.propertyNames, `${key}.<key>`, root, anchors)
          : 'string';
        return `map of ${names} → ${typeOf(values, `${key}.<${keyName(schema)}>`, root, anchors)}`;
      }
      return values === false ? 'empty object' : 'object (any fields)';
    }
    case undefined:
      return 'anything';
    default:
      return String(type);
  }
}

/** Table cell text: one line, pipes escaped, `<…>` outside code spans kept visible (`\\<`). */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .split(/(`+[^`]*`+)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/</g, '\\<')))
    .join('')
    .replace(/\|/g, '\\|');
}

/** The description shown for a field: its own, else its items' or values' one. */
function descriptionOf(raw: Schema, root: Schema): string | undefined {
  const schema = resolveRef(raw, root);
  if (typeof schema.description === 'string') return schema.description;
  for (const inner of [schema.items, schema.additionalProperties]) {
    if (isSchema(inner)) {
      const resolved = resolveRef(inner, root);
      if (typeof resolved.description === 'string' && !isObjectWithFields(resolved))
        return resolved.description;
    }
  }
  return undefined;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, 3, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (row: readonly string[]): string =>
    `| ${row.map((value, column) => value.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

/** Every field of every object of the schema, with its description (if any). */
export function listFields(jsonSchema: Record<string, unknown>): FieldInfo[] {
  return collectSections(jsonSchema)
    .filter((section) => !section.sameAs)
    .flatMap((section) =>
      properties(section.schema).map(([name, field]) => ({
        path: childKey(section.key, name),
        description: descriptionOf(field, jsonSchema),
      })),
    );
}

/**
 * The generated Markdown between the markers: a value-type legend, then one table per
 * object of the format (top level, parties, policy rules, controls, invariants, stages,
 * every step kind, compensations, …). Pure and deterministic.
 *
 * @example
 * ```ts
 * renderDslReference(scenarioJsonSchema()).includes('`stages[].steps[]` with `kind: wait`'); // true
 * ```
 */
export function renderDslReference(jsonSchema: Record<string, unknown>): string {
  const sections = collectSections(jsonSchema);
  const anchors = new Map(sections.map((section) => [section.key, section]));
  const out: string[] = [
    '<!-- prettier-ignore-start -->',
    '<!-- Generated from the scenario JSON Schema: do not edit by hand; run',
    `     ${REGENERATE_COMMAND} -->`,
    '',
  ];

  const serialized = JSON.stringify(jsonSchema);
  const usedPatterns = NAMED_PATTERNS.filter((named) =>
    serialized.includes(JSON.stringify(named.pattern)),
  );
  if (usedPatterns.length > 0) {
    out.push('<a id="ref-value-types"></a>', '', '### Value types', '');
    out.push(
      ...table(
        ['Type', 'Pattern', 'Meaning'],
        usedPatterns.map((named) => [
          named.name,
          cell(code(named.pattern)),
          cell(`${named.meaning}${examplesOf(jsonSchema, named.pattern)}`),
        ]),
      ),
      '',
    );
  }

  for (const section of sections) {
    out.push(`<a id="${section.anchor}"></a>`, '', `### ${section.heading}`, '');
    if (section.sameAs) {
      out.push(`Same fields as [${section.sameAs.heading}](#${section.sameAs.anchor}).`, '');
      continue;
    }
    if (typeof section.schema.description === 'string')
      out.push(cell(section.schema.description), '');
    const required = new Set(stringList(section.schema.required));
    const rows = properties(section.schema).map(([name, field]) => {
      const resolved = resolveRef(field, jsonSchema);
      return [
        `\`${name}\``,
        cell(typeOf(field, childKey(section.key, name), jsonSchema, anchors)),
        required.has(name) ? 'yes' : 'no',
        'default' in resolved ? cell(code(resolved.default)) : '',
        cell(descriptionOf(field, jsonSchema) ?? ''),
      ];
    });
    out.push(...table(['Field', 'Type', 'Required', 'Default', 'Description'], rows), '');
    if (section.schema.additionalProperties === false) out.push('No other fields are allowed.', '');
  }
  out.push('<!-- prettier-ignore-end -->');
  return `${out.join('\n')}\n`;
}

/** ` Examples: `PT30S`, …` from the first schema using the pattern that lists examples. */
function examplesOf(root: Schema, pattern: string): string {
  let found: unknown[] | undefined;
  const walk = (value: unknown): void => {
    if (found) return;
    if (Array.isArray(value)) value.forEach(walk);
    else if (isSchema(value)) {
      if (value.pattern === pattern && Array.isArray(value.examples)) found = value.examples;
      else Object.values(value).forEach(walk);
    }
  };
  walk(root);
  return found && found.length > 0 ? ` Examples: ${found.map(code).join(', ')}.` : '';
}

/** The text between the markers (without them); throws when they are missing. */
export function extractGeneratedSection(document: string): string {
  const begin = document.indexOf(BEGIN_MARKER);
  const end = document.indexOf(END_MARKER);
  if (begin < 0 || end < begin)
    throw new Error(`${GUIDE} has no ${BEGIN_MARKER} … ${END_MARKER} section`);
  return document.slice(begin + BEGIN_MARKER.length, end).replace(/^\n/, '');
}

/** The document with the text between the markers replaced by `section`. */
export function replaceGeneratedSection(document: string, section: string): string {
  extractGeneratedSection(document);
  const begin = document.indexOf(BEGIN_MARKER) + BEGIN_MARKER.length;
  const end = document.indexOf(END_MARKER);
  return `${document.slice(0, begin)}\n${section}${document.slice(end)}`;
}

async function main(argv: readonly string[]): Promise<number> {
  const schema = scenarioJsonSchema();
  if (argv.includes('--list-undocumented')) {
    for (const field of listFields(schema)) if (!field.description) console.log(field.path);
    return 0;
  }
  const target = fileURLToPath(new URL(`../../../${GUIDE}`, import.meta.url));
  const current = await readFile(target, 'utf8');
  const next = replaceGeneratedSection(current, renderDslReference(schema));
  if (argv.includes('--check')) {
    if (next === current) return 0;
    console.error(`${GUIDE} is stale: run ${REGENERATE_COMMAND}`);
    return 1;
  }
  if (next !== current) await writeFile(target, next);
  console.log(next === current ? `${GUIDE} is up to date` : `wrote ${GUIDE}`);
  return 0;
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedDirectly) process.exitCode = await main(process.argv.slice(2));
