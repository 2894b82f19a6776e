// Money conservation over a trace's legs: every completion of a leg's step moves the leg,
// valued by the DSL's `evaluateLeg` against the run's context right after that completion.
import {
  evaluateLeg,
  LegEvaluationError,
  Money,
  type CompiledScenario,
  type RunContext,
} from '@programrun/dsl';
import type { Trace } from './run-trace.js';
import { completesStep } from './step-completion.js';

/** A money leg as declared under `legs:`: it moves when its step completes. */
export interface MoneyLeg {
  readonly id: string;
  readonly step: string;
  readonly direction: 'debit' | 'credit';
  /** CEL expression of the amount (type Money). */
  readonly amount: string;
  /** CEL expression of the currency code. */
  readonly currency: string;
}

/** One leg that moved in a trace (the shape of the DSL's `LegMovement`). */
export interface LegMovement {
  /** The leg's id. */
  readonly id: string;
  readonly step: string;
  readonly direction: 'debit' | 'credit';
  /** Decimal string, e.g. `"125.00"`. */
  readonly amount: string;
  readonly currency: string;
  /** Sequence of the record that completed the step, when known. */
  readonly sequence?: number;
}

/** The legs a trace moved, and the legs that could not be valued. */
export type LegMovementsOf = (
  compiled: CompiledScenario,
  trace: Trace,
) => { readonly moved: readonly LegMovement[]; readonly errors: readonly string[] };

/**
 * The legs a scenario declares (`legs:`); empty when it declares none (or the DSL in
 * use has no legs).
 *
 * @example
 * ```ts
 * declaredLegs(compiled).length > 0; // the money-conservation property applies
 * ```
 */
export function declaredLegs(compiled: CompiledScenario): readonly MoneyLeg[] {
  const legs = (compiled.definition as { legs?: unknown }).legs;
  return Array.isArray(legs) ? (legs as MoneyLeg[]) : [];
}

/** A leg valued against a context by the DSL's own rule, or why it cannot be. */
function valueLeg(
  compiled: CompiledScenario,
  leg: MoneyLeg,
  context: RunContext,
): { amount: string; currency: string } | string {
  try {
    const { amount, currency } = evaluateLeg(compiled, leg, context);
    return { amount, currency };
  } catch (error) {
    if (error instanceof LegEvaluationError) return error.detail;
    throw error;
  }
}

/**
 * The legs a trace moved: each completion of a leg's step moves the leg
 * once, valued by the DSL's `evaluateLeg` against the run's context right after
 * the action that completed the step (the trace must keep contexts).
 *
 * @example
 * ```ts
 * localLegMovements(compiled, trace).moved; // [{ id: 'payer_debit', direction: 'debit', amount: '33.68', … }]
 * ```
 */
export const localLegMovements: LegMovementsOf = (compiled, trace) => {
  const legs = declaredLegs(compiled);
  const moved: LegMovement[] = [];
  const errors: string[] = [];
  const records = new Map(trace.records.map((record) => [record.sequence, record]));
  for (const entry of trace.timeline) {
    for (const { sequence, step } of entry.records) {
      const record = records.get(sequence);
      const kind = step === null ? undefined : compiled.graph.steps.get(step)?.kind;
      if (!record || !completesStep(record, kind)) continue;
      for (const leg of legs) {
        if (leg.step !== step) continue;
        const value = entry.context ? valueLeg(compiled, leg, entry.context) : 'no run context';
        if (typeof value === 'string') errors.push(`leg ${leg.id} at #${sequence}: ${value}`);
        else moved.push({ id: leg.id, step, direction: leg.direction, ...value, sequence });
      }
    }
  }
  return { moved, errors };
};

/**
 * Whether money is conserved on a finished trace: per currency, what the moved debit
 * legs took equals what the moved credit legs gave. Traces that did not end are not
 * judged (termination is its own property). Empty when money is conserved.
 *
 * @example
 * ```ts
 * moneyConservationViolations(compiled, trace);
 * // ['EUR: debits 125.00 ≠ credits 0.00 on a faulted run (moved: hold_debit debit 125.00 at #9)']
 * ```
 */
export function moneyConservationViolations(
  compiled: CompiledScenario,
  trace: Trace,
  movementsOf: LegMovementsOf = localLegMovements,
): string[] {
  if (!trace.terminated || declaredLegs(compiled).length === 0) return [];
  const { moved, errors } = movementsOf(compiled, trace);
  const zero = Money.parse('0');
  const totals = new Map<string, { debit: Money; credit: Money }>();
  for (const movement of moved) {
    const total = totals.get(movement.currency) ?? { debit: zero, credit: zero };
    total[movement.direction] = total[movement.direction].add(Money.parse(movement.amount));
    totals.set(movement.currency, total);
  }
  const violations = [...errors];
  for (const [currency, { debit, credit }] of totals) {
    if (debit.equals(credit)) continue;
    const legs = moved
      .filter((movement) => movement.currency === currency)
      .map(
        (movement) =>
          `${movement.id} ${movement.direction} ${movement.amount}${movement.sequence === undefined ? '' : ` at #${movement.sequence}`}`,
      )
      .join(', ');
    violations.push(
      `${currency}: debits ${debit.toString()} ≠ credits ${credit.toString()} on a ${trace.run.status} run (moved: ${legs})`,
    );
  }
  return violations;
}
