import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import type { CelNode } from './cel-ast.js';
import {
  EvaluationMeter,
  EXPRESSION_BUDGET,
  ExpressionBudgetExceeded,
} from './evaluation-budget.js';
import { meterExpression } from './metered-expression.js';
import { registerMoneyFunctions } from './money-functions.js';

const environment = registerMoneyFunctions(new Environment())
  .registerVariable('l', 'list<int>')
  .registerVariable('s', 'string')
  .registerVariable('m', 'map<string, int>');

const thousand = Array.from({ length: 1000 }, (_, index) => BigInt(index));
const data = { l: thousand, s: 'abc', m: { a: 1n } };

/** Parses, checks and meters `source`; evaluating returns the value or the error. */
function metered(source: string, budget = EXPRESSION_BUDGET) {
  const parsed = environment.parse(source) as unknown as ((activation: object) => unknown) & {
    ast: CelNode;
    check(): { valid: boolean };
  };
  expect(parsed.check().valid).toBe(true);
  const meter = new EvaluationMeter(budget);
  meterExpression(parsed.ast, meter);
  return {
    meter,
    evaluate: (activation: object = data): unknown => {
      meter.reset();
      try {
        return parsed(activation);
      } catch (error) {
        return error;
      }
    },
  };
}

describe('metered evaluation', () => {
  it.each([
    ['l.all(x, x >= 0)', true],
    ['l.exists(x, x == 999)', true],
    ['l.filter(x, x < 3)', [0n, 1n, 2n]],
    ['l.map(x, x * 2)[10]', 20n],
    ['size(l) == 1000 && s.startsWith("a") && "a" in m', true],
    ['[1, 2, 3].exists_one(x, x == 2)', true],
    ['cel.bind(t, s + s, t.size())', 6n],
    ['has(m.a) ? m.a : 0', 1n],
    ['s.matches("^a.c$") && !s.matches("^b")', true],
    ['decimal(money("1.10") + money("2.20"))', '3.30'],
  ])('gives %s the same value as without metering', (source, expected) => {
    expect(metered(source).evaluate()).toEqual(expected);
    expect(environment.evaluate(source, data)).toEqual(expected);
  });

  it('stops three nested comprehensions over 1,000 elements at the budget, quickly', () => {
    const { evaluate, meter } = metered('l.all(a, l.all(b, l.all(c, a + b + c >= 0)))');
    const started = performance.now();
    const result = evaluate();
    const ms = performance.now() - started;
    expect(result).toBeInstanceOf(ExpressionBudgetExceeded);
    expect(meter.exhausted).toBe(true);
    expect(ms).toBeLessThan(1_000);
  });

  it('charges one step per node evaluated, per iteration', () => {
    const { evaluate, meter } = metered('l.all(x, x >= 0)');
    evaluate();
    // ~1,000 iterations of a handful of nodes each.
    expect(meter.used).toBeGreaterThan(3_000);
    expect(meter.used).toBeLessThan(10_000);
  });

  it('charges what an operation reads: a list on the right of `in`, not size()', () => {
    const membership = metered('l.all(x, x in l)');
    // 1,000 × 1,000 elements compared: over the budget, though only 1,000 iterations.
    expect(membership.evaluate()).toBeInstanceOf(ExpressionBudgetExceeded);
    const size = metered('l.all(x, x < size(l))');
    expect(size.evaluate()).toBe(true);
    expect(size.meter.used).toBeLessThan(10_000);
  });

  it('charges the text a regular expression scans', () => {
    const { evaluate, meter } = metered('s.matches("^(a+)+$")');
    expect(evaluate({ ...data, s: 'a'.repeat(10_000) + '!' })).toBe(false);
    expect(meter.used).toBeGreaterThan(10_000);
  });

  it('stays exhausted when exists() swallows the error', () => {
    const { evaluate, meter } = metered('l.exists(x, l.exists(y, x + y < 0) || x == 999)', 100_000);
    // exists() skips elements whose predicate failed and finds x == 999… after the budget.
    evaluate();
    expect(meter.exhausted).toBe(true);
  });

  it('answers matches() from RE2 and refuses what RE2 refuses', () => {
    const { evaluate } = metered('s.matches("(?=a)")');
    expect(String(evaluate())).toContain('uses lookahead');
  });

  it('refuses timestamps of days the calendar lacks instead of rolling them over', () => {
    expect(String(metered('timestamp("2026-02-30T00:00:00Z")').evaluate())).toContain(
      'is not a calendar date',
    );
    expect(String(metered('timestamp("2026-02-29T12:00:00Z")').evaluate())).toContain(
      'is not a calendar date',
    );
    expect(String(metered('timestamp(s + "-13-01T00:00:00Z")').evaluate({ s: '2026' }))).toContain(
      'is not a calendar date',
    );
    expect(metered('timestamp("2028-02-29T23:30:00+01:00")').evaluate()).toEqual(
      new Date('2028-02-29T22:30:00Z'),
    );
  });
});
