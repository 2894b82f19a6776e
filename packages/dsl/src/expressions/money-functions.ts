import type { Environment } from '@marcbachmann/cel-js';
import { Money } from '../money/money.js';

/**
 * Adds the `Money` type (an exact decimal) to a CEL environment. CEL doubles never
 * touch money:
 * - `money("10.00")` parses; `decimal(m)` prints; `+`, `-` and all comparisons work;
 * - `minor(m, digits)` gives integer minor units and `money_minor(units, digits)` back;
 * - `multiply(m, rate, digits)`, `divide(m, n, digits)` and `round(m, digits)` compute
 *   exactly and round half-to-even once, at the scale you name.
 */
export function registerMoneyFunctions(environment: Environment): Environment {
  return environment
    .registerType('Money', Money)
    .registerFunction('money(string): Money', (text: string) => Money.parse(text), {
      description: 'Parses a decimal string such as "125.00" into an exact amount.',
    })
    .registerFunction('minor(Money, int): int', (amount: Money, digits: bigint) =>
      amount.toMinorUnits(Number(digits)),
    )
    .registerFunction('decimal(Money): string', (amount: Money) => amount.toString())
    .registerFunction('money_minor(int, int): Money', (units: bigint, digits: bigint) =>
      Money.fromMinorUnits(units, Number(digits)),
    )
    .registerFunction(
      'multiply(Money, Money, int): Money',
      (amount: Money, factor: Money, digits: bigint) => amount.multiply(factor, Number(digits)),
    )
    .registerFunction(
      'divide(Money, Money, int): Money',
      (amount: Money, divisor: Money, digits: bigint) => amount.divide(divisor, Number(digits)),
    )
    .registerFunction('round(Money, int): Money', (amount: Money, digits: bigint) =>
      amount.round(Number(digits)),
    )
    .registerOperator('Money + Money', (left: Money, right: Money) => left.add(right))
    .registerOperator('Money - Money', (left: Money, right: Money) => left.subtract(right))
    .registerOperator('Money == Money', (left: Money, right: Money) => left.compare(right) === 0)
    .registerOperator('Money < Money', (left: Money, right: Money) => left.compare(right) < 0)
    .registerOperator('Money <= Money', (left: Money, right: Money) => left.compare(right) <= 0)
    .registerOperator('Money > Money', (left: Money, right: Money) => left.compare(right) > 0)
    .registerOperator('Money >= Money', (left: Money, right: Money) => left.compare(right) >= 0);
}
