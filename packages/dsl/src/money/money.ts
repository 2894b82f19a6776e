import { ProgramrunError } from '@programrun/evidence';

const DECIMAL = /^(-)?(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
/** Digits allowed on each side of the point: far beyond any real amount, bounded for safety. */
const MAX_DIGITS = 38;

/**
 * Thrown for a malformed decimal string or a lossy conversion.
 *
 * @example
 * ```ts
 * try { Money.parse('1e3'); } catch (error) { (error as MoneyError).code; } // 'invalid_money'
 * ```
 */
export class MoneyError extends ProgramrunError {
  constructor(message: string) {
    super('invalid_money', message);
  }
}

/** `numerator / denominator` (denominator > 0) rounded half-to-even to an integer. */
function roundHalfEven(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  const twiceRemainder = (magnitude % denominator) * 2n;
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n))
    quotient += 1n;
  return negative ? -quotient : quotient;
}

/**
 * An exact decimal amount: `units × 10^-scale` with `units` a bigint. Never a JS number.
 * Currency-agnostic; the scenario's input schema fixes the currency and precision.
 *
 * @example
 * ```ts
 * const total = Money.parse('10.50').add(Money.parse('0.25'));
 * total.toString();      // '10.75'
 * total.toMinorUnits(2); // 1075n
 * ```
 */
export class Money {
  /** Integer count of 10^-scale units. */
  readonly units: bigint;
  /** Digits after the decimal point. */
  readonly scale: number;

  private constructor(units: bigint, scale: number) {
    this.units = units;
    this.scale = scale;
  }

  /**
   * Parses a plain decimal string (`"125.00"`, `"-3.5"`, `"0"`): no exponent, no `+`,
   * no leading zeros, no grouping.
   */
  static parse(text: string): Money {
    const match = DECIMAL.exec(text);
    if (!match)
      throw new MoneyError(`"${text.slice(0, 40)}" is not a decimal string such as "125.00"`);
    const [, sign, whole = '0', fraction = ''] = match;
    if (whole.length > MAX_DIGITS || fraction.length > MAX_DIGITS) {
      throw new MoneyError(`"${text.slice(0, 40)}…" has more than ${MAX_DIGITS} digits`);
    }
    const units = BigInt(whole + fraction);
    return new Money(sign ? -units : units, fraction.length);
  }

  /** An amount from integer minor units, e.g. `Money.fromMinorUnits(1075n, 2)` is 10.75. */
  static fromMinorUnits(units: bigint, scale: number): Money {
    if (!Number.isInteger(scale) || scale < 0 || scale > MAX_DIGITS)
      throw new MoneyError(`bad scale ${scale}`);
    return new Money(units, scale);
  }

  /** Integer minor units at `scale` digits; throws rather than round. */
  toMinorUnits(scale: number): bigint {
    if (scale >= this.scale) return this.units * 10n ** BigInt(scale - this.scale);
    const divisor = 10n ** BigInt(this.scale - scale);
    if (this.units % divisor !== 0n) {
      throw new MoneyError(`${this.toString()} has more than ${scale} fraction digits`);
    }
    return this.units / divisor;
  }

  add(other: Money): Money {
    const scale = Math.max(this.scale, other.scale);
    return new Money(this.toMinorUnits(scale) + other.toMinorUnits(scale), scale);
  }

  subtract(other: Money): Money {
    const scale = Math.max(this.scale, other.scale);
    return new Money(this.toMinorUnits(scale) - other.toMinorUnits(scale), scale);
  }

  /**
   * The exact product `this × factor`, rounded half-to-even (banker's rounding) to `scale`
   * fraction digits: the one rounding step of a conversion, made explicit.
   */
  multiply(factor: Money, scale: number): Money {
    if (!Number.isInteger(scale) || scale < 0 || scale > MAX_DIGITS)
      throw new MoneyError(`bad scale ${scale}`);
    const product = this.units * factor.units;
    const productScale = this.scale + factor.scale;
    if (productScale <= scale)
      return new Money(product * 10n ** BigInt(scale - productScale), scale);
    return new Money(roundHalfEven(product, 10n ** BigInt(productScale - scale)), scale);
  }

  /**
   * The exact quotient `this ÷ divisor`, rounded half-to-even to `scale` fraction digits
   * (e.g. a coupon of face × rate ÷ 12). Throws on division by zero.
   */
  divide(divisor: Money, scale: number): Money {
    if (!Number.isInteger(scale) || scale < 0 || scale > MAX_DIGITS)
      throw new MoneyError(`bad scale ${scale}`);
    if (divisor.units === 0n) throw new MoneyError('division by zero');
    // this / divisor = (units_a / 10^sa) / (units_b / 10^sb); times 10^scale as p / q.
    let numerator = this.units * 10n ** BigInt(scale + divisor.scale);
    let denominator = divisor.units * 10n ** BigInt(this.scale);
    if (denominator < 0n) {
      numerator = -numerator;
      denominator = -denominator;
    }
    return new Money(roundHalfEven(numerator, denominator), scale);
  }

  /** This amount rounded half-to-even to `scale` fraction digits. */
  round(scale: number): Money {
    return this.multiply(Money.fromMinorUnits(1n, 0), scale);
  }

  /** -1, 0 or 1: compares values, not representations (`1.50` equals `1.5`). */
  compare(other: Money): -1 | 0 | 1 {
    const scale = Math.max(this.scale, other.scale);
    const left = this.toMinorUnits(scale);
    const right = other.toMinorUnits(scale);
    return left < right ? -1 : left > right ? 1 : 0;
  }

  equals(other: Money): boolean {
    return this.compare(other) === 0;
  }

  isPositive(): boolean {
    return this.units > 0n;
  }

  /** The decimal string at this amount's own scale, e.g. `"10.50"`. */
  toString(): string {
    const negative = this.units < 0n;
    const digits = (negative ? -this.units : this.units).toString().padStart(this.scale + 1, '0');
    const whole = digits.slice(0, digits.length - this.scale);
    const fraction = this.scale > 0 ? `.${digits.slice(digits.length - this.scale)}` : '';
    return `${negative ? '-' : ''}${whole}${fraction}`;
  }

  toJSON(): string {
    return this.toString();
  }
}

/**
 * Integer minor units of a decimal string, exact or throwing.
 *
 * @example
 * ```ts
 * toMinorUnits('125.40', 2); // 12540n
 * toMinorUnits('0.125', 2);  // throws MoneyError
 * ```
 */
export function toMinorUnits(amount: string, scale: number): bigint {
  return Money.parse(amount).toMinorUnits(scale);
}

/**
 * The decimal string of integer minor units.
 *
 * @example
 * ```ts
 * fromMinorUnits(12540n, 2); // '125.40'
 * ```
 */
export function fromMinorUnits(units: bigint, scale: number): string {
  return Money.fromMinorUnits(units, scale).toString();
}

/**
 * Compares two decimal strings by value.
 *
 * @example
 * ```ts
 * compareDecimal('10.0', '9.99'); // 1
 * ```
 */
export function compareDecimal(left: string, right: string): -1 | 0 | 1 {
  return Money.parse(left).compare(Money.parse(right));
}
