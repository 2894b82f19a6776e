import { Money } from '../money/money.js';
import type { LegMovement } from './leg-movements.js';

/** Debits and credits of one currency. */
export interface LegBalance {
  readonly currency: string;
  /** Sum of debit amounts, a decimal string. */
  readonly debits: string;
  /** Sum of credit amounts, a decimal string. */
  readonly credits: string;
  /** True when debits equal credits by value (`1.50` equals `1.5`). */
  readonly balanced: boolean;
}

/**
 * Debits and credits per currency, sorted by currency: the conservation check of a run's
 * legs (every finished run of a well-declared scenario is balanced in every currency).
 *
 * @example
 * ```ts
 * legBalances(legMovements(compiled, context)).every((balance) => balance.balanced); // true
 * ```
 */
export function legBalances(movements: readonly LegMovement[]): LegBalance[] {
  const totals = new Map<string, { debits: Money; credits: Money }>();
  const zero = Money.parse('0');
  for (const movement of movements) {
    const total = totals.get(movement.currency) ?? { debits: zero, credits: zero };
    const amount = Money.parse(movement.amount);
    totals.set(
      movement.currency,
      movement.direction === 'debit'
        ? { ...total, debits: total.debits.add(amount) }
        : { ...total, credits: total.credits.add(amount) },
    );
  }
  return [...totals.entries()]
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([currency, { debits, credits }]) => ({
      currency,
      debits: debits.toString(),
      credits: credits.toString(),
      balanced: debits.equals(credits),
    }));
}
