// Partner answers that sit on the other side of a gate: the simulated partner's data with
// one field a rule reads moved just under or just over what it was.
import { Money } from '@programrun/dsl';
import type { JsonObject, JsonValue } from '@programrun/evidence';
import type { GateReads } from './gate-reads.js';

/**
 * One field of a partner answer's data changed: moved `under` or `over` its simulated
 * value (or, with `of`, the value of that input, which a rule compares it with, or with
 * `of` and `times` that share of it), or set to a `value` (one minor unit beside a
 * literal a rule compares it with). With `balance`, another field then takes what is left
 * of an input, so a sum a rule reconciles still holds (`received + fee == amount`).
 */
export type AnswerDataChange =
  | {
      /** The data field (a rule reads `handoffs.<step>.data.<field>`). */
      readonly field: string;
      readonly to: 'under' | 'over';
      /** An input field whose value to move from instead of the data's own. */
      readonly of?: string;
      /** A factor the input's value is multiplied by first (a tolerance: `"0.005"`). */
      readonly times?: string;
      /** A field set to input `of` less this field afterwards. */
      readonly balance?: { readonly field: string; readonly of: string };
    }
  | { readonly field: string; readonly to: 'value'; readonly value: string };

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/** One minor unit of a decimal string's own scale (`"0.01"` for `"480.00"`). */
function unitOf(decimal: string): Money {
  const scale = decimal.split('.')[1]?.length ?? 0;
  return Money.fromMinorUnits(1n, scale);
}

/** The value moved: decimals by one minor unit, numbers by one, booleans flipped, other strings replaced. */
function moved(value: JsonValue | undefined, to: 'under' | 'over'): JsonValue {
  if (typeof value === 'string' && DECIMAL.test(value)) {
    const amount = Money.parse(value);
    return (to === 'under' ? amount.subtract(unitOf(value)) : amount.add(unitOf(value))).toString();
  }
  if (typeof value === 'number') return to === 'under' ? value - 1 : value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return to === 'under' ? '' : `not_${value}`;
  // Nothing to move from: the least and a large amount, the usual shape of what rules compare.
  return to === 'under' ? '0.00' : '999999999.99';
}

/**
 * `data` with `change.field` moved just under or over its value (or the value of input
 * `change.of`), or set to `change.value`: e.g. a captured amount one cent below the refund
 * it must cover.
 *
 * @example
 * ```ts
 * changeAnswerData({ captured_amount: '480.00' }, { field: 'captured_amount', to: 'under' });
 * // { captured_amount: '479.99' }
 * changeAnswerData({ balance: '9000000.00' }, { field: 'balance', to: 'under', of: 'amount' }, { amount: '250.00' });
 * // { balance: '249.99' }
 * ```
 */
export function changeAnswerData(
  data: JsonObject,
  change: AnswerDataChange,
  inputs: JsonObject = {},
): JsonObject {
  if (change.to === 'value') return { ...data, [change.field]: change.value };
  const from = change.of === undefined ? data[change.field] : inputs[change.of];
  const value = moved(
    change.times === undefined || typeof from !== 'string' ? from : share(from, change.times),
    change.to,
  );
  const changed = { ...data, [change.field]: value };
  const total = change.balance && inputs[change.balance.of];
  if (change.balance && typeof total === 'string' && typeof value === 'string')
    changed[change.balance.field] = Money.parse(total).subtract(Money.parse(value)).toString();
  return changed;
}

/** `factor` times a decimal, at the decimal's own scale. */
const share = (decimal: string, factor: string): string =>
  Money.parse(decimal)
    .multiply(Money.parse(factor), decimal.split('.')[1]?.length ?? 0)
    .toString();

/** The amounts a field read only through a record is set to. */
const EXTREMES = ['0.00', '999999999999.99'];

/** One minor unit under and over a decimal literal, at its own scale. */
function beside(literal: string): string[] {
  const amount = Money.parse(literal);
  return [amount.subtract(unitOf(literal)), amount.add(unitOf(literal))].map((value) =>
    value.toString(),
  );
}

/**
 * Every change worth trying on a scenario's partner answers: each handoff data field its
 * conditions read (`gateReads`), moved under and over its own value and the value of each
 * input a condition compares it with, and set one minor unit beside each money literal a
 * condition compares it with.
 *
 * @example
 * ```ts
 * answerDataChanges(gateReads(compiled));
 * // [{ field: 'held_amount', to: 'under' }, { field: 'held_amount', to: 'over' }, …]
 * ```
 */
export function answerDataChanges(reads: GateReads): AnswerDataChange[] {
  const fields = new Set([...reads.handoffFields.values()].flat());
  return [...fields].flatMap((field): AnswerDataChange[] => [
    { field, to: 'under' },
    { field, to: 'over' },
    ...(reads.fieldInputs.get(field) ?? []).flatMap((of): AnswerDataChange[] => [
      { field, to: 'under', of },
      { field, to: 'over', of },
    ]),
    // Beside a share of an input; and, when the field is one of a reconciled sum, with the
    // other field taking the rest, so only the tolerance is crossed.
    ...(reads.fieldShares.get(field) ?? []).flatMap(({ input: of, factor: times }) =>
      (['under', 'over'] as const).flatMap((to): AnswerDataChange[] => [
        { field, to, of, times },
        ...(reads.fieldSums.get(field) ?? []).map((balance): AnswerDataChange => ({
          field,
          to,
          of,
          times,
          balance: { field: balance.field, of: balance.input },
        })),
      ]),
    ),
    // Read only through a record: the extremes, since a cent rarely crosses a sum.
    ...(reads.recordedFields.includes(field) ? EXTREMES : []).map((value): AnswerDataChange => ({
      field,
      to: 'value',
      value,
    })),
    ...(reads.fieldLiterals.get(field) ?? [])
      .flatMap(beside)
      .map((value): AnswerDataChange => ({ field, to: 'value', value })),
  ]);
}
