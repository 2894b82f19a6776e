// The generated "Field reference" of docs/guides/writing-scenarios.md must match the
// scenario JSON Schema, and must cover every step kind and every top-level field.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema } from '../src/index.js';
import {
  extractGeneratedSection,
  GUIDE,
  REGENERATE_COMMAND,
  renderDslReference,
  replaceGeneratedSection,
} from '../scripts/generate-dsl-reference.js';

const guideUrl = new URL(`../../../${GUIDE}`, import.meta.url);
const schema = scenarioJsonSchema();
const generated = renderDslReference(schema);

/** The value at `keys` inside a JSON value, or undefined. */
function at(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>(
    (current, key) =>
      typeof current === 'object' && current !== null
        ? (current as Record<string, unknown>)[key]
        : undefined,
    value,
  );
}

function stepKinds(): string[] {
  const steps = at(schema, 'properties', 'stages', 'items', 'properties', 'steps', 'items');
  const variants = [at(steps, 'oneOf'), at(steps, 'anyOf')].flatMap((list) =>
    Array.isArray(list) ? (list as unknown[]) : [],
  );
  return variants.map((variant) => String(at(variant, 'properties', 'kind', 'const')));
}

describe('the DSL field reference in the writing-scenarios guide', () => {
  it('is up to date with the scenario JSON Schema', async () => {
    const committed = extractGeneratedSection(await readFile(guideUrl, 'utf8'));
    expect(committed, `${GUIDE} is stale: run ${REGENERATE_COMMAND}`).toBe(generated);
  });

  it('documents every step kind', () => {
    const kinds = stepKinds();
    expect(kinds).toEqual(
      expect.arrayContaining(['check', 'approval', 'handoff', 'record', 'route', 'wait']),
    );
    for (const kind of kinds)
      expect(generated, `step kind ${kind}`).toContain(
        `\`stages[].steps[]\` with \`kind: ${kind}\``,
      );
  });

  it('documents every top-level field', () => {
    const fields = Object.keys(at(schema, 'properties') as Record<string, unknown>);
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields)
      expect(generated, `top-level field ${field}`).toContain(`| \`${field}\` `);
  });

  it('is deterministic and replaces only the text between the markers', () => {
    expect(renderDslReference(scenarioJsonSchema())).toBe(generated);
    const document = [
      'before',
      '<!-- BEGIN GENERATED: dsl-reference -->',
      'old',
      '<!-- END GENERATED: dsl-reference -->',
      'after',
      '',
    ].join('\n');
    const replaced = replaceGeneratedSection(document, generated);
    expect(replaced.startsWith('before\n<!-- BEGIN GENERATED: dsl-reference -->\n')).toBe(true);
    expect(replaced.endsWith('<!-- END GENERATED: dsl-reference -->\nafter\n')).toBe(true);
    expect(extractGeneratedSection(replaced)).toBe(generated);
    expect(replaceGeneratedSection(replaced, generated)).toBe(replaced);
  });

  it('renders a union without a discriminator by the fields of each variant', () => {
    const reference = renderDslReference({
      type: 'object',
      properties: {
        rules: {
          type: 'array',
          items: {
            anyOf: [
              {
                type: 'object',
                properties: { id: { type: 'string' }, first: { type: 'string' } },
                required: ['id', 'first'],
              },
              {
                type: 'object',
                properties: { id: { type: 'string' }, second: { type: 'integer', minimum: 1 } },
                required: ['id', 'second'],
              },
            ],
          },
        },
      },
    });
    expect(reference).toContain('### `rules[]` with `first`');
    expect(reference).toContain('### `rules[]` with `second`');
    expect(reference).toContain('| `second` | integer ≥ 1 | yes');
  });
});
