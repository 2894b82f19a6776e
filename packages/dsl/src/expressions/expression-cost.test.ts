import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import type { CelNode } from './cel-ast.js';
import { expressionCost } from './expression-cost.js';

const environment = new Environment({ unlistedVariablesAreDyn: true });
const ast = (source: string) => (environment.parse(source) as unknown as { ast: CelNode }).ast;

const inputs = {
  type: 'object',
  properties: {
    small: { type: 'array', maxItems: 10, items: { type: 'integer' } },
    big: { type: 'array', maxItems: 1000, items: { type: 'integer' } },
    open: { type: 'array', items: { type: 'integer' } },
    orders: {
      type: 'array',
      maxItems: 20,
      items: { type: 'object', properties: { lines: { type: 'array', maxItems: 30 } } },
    },
    tags: { type: 'object', maxProperties: 5 },
  },
};

const cost = (source: string) => expressionCost(ast(source), inputs);

describe('static expression cost', () => {
  it('counts each node once without comprehensions', () => {
    expect(cost('inputs.small == inputs.big').steps).toBeLessThan(10);
  });

  it('multiplies nested comprehensions by their declared sizes', () => {
    const flat = cost('inputs.big.all(x, x > 0)');
    const nested = cost('inputs.big.all(x, inputs.big.all(y, inputs.big.all(z, x + y + z > 0)))');
    expect(flat.steps).toBeGreaterThan(1_000);
    expect(flat.steps).toBeLessThan(10_000);
    expect(nested.steps).toBeGreaterThan(1_000_000_000);
    expect(nested.costliest.map((range) => [range.text, range.bound])).toEqual([
      ['inputs.big', 1000],
      ['inputs.big', 1000],
      ['inputs.big', 1000],
    ]);
    expect(nested.unbounded).toEqual([]);
  });

  it('follows iteration variables, list literals, map sizes and map()/filter() results', () => {
    expect(
      cost('inputs.orders.all(o, o.lines.all(l, l != ""))').costliest.map((range) => range.bound),
    ).toEqual([20, 30]);
    expect(
      cost('[1, 2, 3].all(x, inputs.small.all(y, x < y))').costliest.map((r) => r.bound),
    ).toEqual([3, 10]);
    expect(cost('inputs.tags.all(k, inputs.small.all(y, k != ""))').costliest[0]!.bound).toBe(5);
    expect(
      cost('inputs.big.filter(x, x > 0).all(x, inputs.small.all(y, x < y))').costliest[0]!.bound,
    ).toBe(1000);
  });

  it('names input lists without maxItems nested with another range of open size', () => {
    expect(cost('inputs.open.all(x, x > 0)').unbounded).toEqual([]);
    // Nested with a known size, the cost still grows linearly with the inputs.
    expect(cost('inputs.open.all(x, inputs.small.all(y, x < y))').unbounded).toEqual([]);
    const open = { text: 'inputs.open', start: 0, bound: 'unbounded' };
    expect(cost('inputs.open.all(x, inputs.open.all(y, x < y))').unbounded).toEqual([
      { range: open, nestedWith: [{ ...open, start: 19 }] },
      { range: { ...open, start: 19 }, nestedWith: [open] },
    ]);
    expect(cost('inputs.open.all(x, records.r.rows.all(y, x < y))').unbounded).toEqual([
      { range: open, nestedWith: [{ text: 'records.r.rows', start: 19, bound: 'unknown' }] },
    ]);
  });

  it('leaves sizes it cannot know to the run-time budget', () => {
    const unknown = cost('records.x.rows.all(a, records.x.rows.all(b, a != b))');
    expect(unknown.unbounded).toEqual([]);
    expect(unknown.costliest.map((range) => range.bound)).toEqual(['unknown', 'unknown']);
  });
});
