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

  it('multiplies exactly and rounds half to even once', () => {
    expect(Money.parse('850.00').multiply(Money.parse('0.03962'), 2).toString()).toBe('33.68');
    expect(Money.parse('1.005').multiply(Money.parse('1'), 2).toString()).toBe('1.00');
    expect(Money.parse('1.015').multiply(Money.parse('1'), 2).toString()).toBe('1.02');
    expect(Money.parse('-1.015').multiply(Money.parse('1'), 2).toString()).toBe('-1.02');
    expect(Money.parse('2.5').multiply(Money.parse('2'), 4).toString()).toBe('5.0000');
  });

  it('rounds a product like bigint division with half-to-even ties', () => {
    fc.assert(
      fc.property(
        units,
        scale,
        units,
        scale,
        fc.integer({ min: 0, max: 8 }),
        (a, sa, b, sb, target) => {
          const product = Money.fromMinorUnits(a, sa).multiply(Money.fromMinorUnits(b, sb), target);
          // Exact value times 10^target, as a rational p / q.
          const p = a * b * 10n ** BigInt(target);
          const q = 10n ** BigInt(sa + sb);
          const floor = p >= 0n ? p / q : -((-p + q - 1n) / q);
          const remainder = p - floor * q;
          const expected =
            remainder * 2n > q || (remainder * 2n === q && floor % 2n !== 0n) ? floor + 1n : floor;
          expect(product.toMinorUnits(target)).toBe(expected);
        },
      ),
    );
  });

  it('divides exactly and rounds half to even once', () => {
    // 500,000,000.00 at 5.125% a year, paid monthly.
    const coupon = Money.parse('500000000.00')
      .multiply(Money.parse('0.05125'), 8)
      .divide(Money.parse('12'), 2);
    expect(coupon.toString()).toBe('2135416.67');
    expect(Money.parse('1.00').divide(Money.parse('8'), 3).toString()).toBe('0.125');
    expect(Money.parse('1.00').divide(Money.parse('8'), 2).toString()).toBe('0.12');
    expect(Money.parse('-1.00').divide(Money.parse('-3'), 4).toString()).toBe('0.3333');
    expect(Money.parse('2.675').round(2).toString()).toBe('2.68');
    expect(() => Money.parse('1.00').divide(Money.parse('0.00'), 2)).toThrow(MoneyError);
  });

  it('divides to within half a unit of the exact quotient', () => {
    fc.assert(
      fc.property(
        units,
        scale,
        units.filter((value) => value !== 0n),
        scale,
        fc.integer({ min: 0, max: 8 }),
        (a, sa, b, sb, target) => {
          const quotient = Money.fromMinorUnits(a, sa).divide(Money.fromMinorUnits(b, sb), target);
          // |q - a·10^sb / (b·10^sa)| ≤ 1/2 unit at the target scale, in integers:
          // |2·a·10^(target+sb) − 2·q·b·10^sa| ≤ |b|·10^sa.
          const exact = 2n * a * 10n ** BigInt(target + sb);
          const approximate = 2n * quotient.toMinorUnits(target) * b * 10n ** BigInt(sa);
          const bound = (b < 0n ? -b : b) * 10n ** BigInt(sa);
          const error = exact - approximate;
          expect(error <= bound && error >= -bound).toBe(true);
        },
      ),
    );
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
