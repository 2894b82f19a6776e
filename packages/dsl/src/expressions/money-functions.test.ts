import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { registerMoneyFunctions } from './money-functions.js';

const environment = registerMoneyFunctions(new Environment());
const evaluate = (expression: string): unknown => environment.evaluate(expression);

describe('money in CEL', () => {
  it.each([
    ['money("0.10") + money("0.20") == money("0.30")', true],
    ['money("1.50") == money("1.5")', true],
    ['money("10.00") - money("0.01") < money("10.00")', true],
    ['money("10000.00") >= money("9999.99")', true],
    ['decimal(multiply(money("850.00"), money("0.03962"), 2))', '33.68'],
    ['decimal(divide(money("1000.00"), money("3"), 2))', '333.33'],
    ['decimal(round(money("2.675"), 2))', '2.68'],
    ['minor(money("125.40"), 2)', 12540n],
    ['decimal(money_minor(12540, 2))', '125.40'],
  ])('%s', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });

  it('type-checks money against numbers', () => {
    expect(environment.check('money("1.00") <= 5').valid).toBe(false);
  });
});
