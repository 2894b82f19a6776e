import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Money, MoneyError, compareDecimal, fromMinorUnits, toMinorUnits } from './money.js';

const units = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });
const scale = fc.integer({ min: 0, max: 8 });

describe('Money', () => {
  it('parses and prints decimal strings exactly', () => {
    expect(Money.parse('125.00').toString()).toBe('125.00');
    expect(Money.parse('-0.05').toString()).toBe('-0.05');
    expect(Money.parse('0').toString()).toBe('0');
    expect(toMinorUnits('125.40', 2)).toBe(12540n);
    expect(fromMinorUnits(12540n, 2)).toBe('125.40');
    expect(compareDecimal('1.50', '1.5')).toBe(0);
  });

  it.each(['', '01.00', '1.', '.5', '+1', '1e3', '1,000.00', ' 1.00', 'NaN', '0x10'])(
    'rejects %j',
    (text) => {
      expect(() => Money.parse(text)).toThrow(MoneyError);
    },
  );

  it('refuses to round when converting to fewer digits', () => {
    expect(() => toMinorUnits('0.125', 2)).toThrow(/more than 2 fraction digits/);
  });

  it('round-trips minor units through strings', () => {
    fc.assert(
      fc.property(units, scale, (value, digits) => {
        const text = fromMinorUnits(value, digits);
        expect(toMinorUnits(text, digits)).toBe(value);
      }),
    );
  });

  it('adds, subtracts and compares like bigint arithmetic at a common scale', () => {
    fc.assert(
      fc.property(units, scale, units, scale, (a, sa, b, sb) => {
        const left = Money.fromMinorUnits(a, sa);
        const right = Money.fromMinorUnits(b, sb);
        const common = Math.max(sa, sb);
        const [x, y] = [left.toMinorUnits(common), right.toMinorUnits(common)];
        expect(left.add(right).toMinorUnits(common)).toBe(x + y);
        expect(left.subtract(right).toMinorUnits(common)).toBe(x - y);
        expect(left.compare(right)).toBe(x < y ? -1 : x > y ? 1 : 0);
        expect(left.add(right).subtract(right).equals(left)).toBe(true);
      }),
    );
  });
});
