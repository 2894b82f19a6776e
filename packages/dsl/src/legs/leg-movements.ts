import { ProgramrunError } from '@programrun/evidence';
import { Money } from '../money/money.js';
import type { LegDefinition, LegDirection } from '../schema/leg-schema.js';
import type { CompiledScenario } from '../compile/compile.js';
import type { RunContext } from '../compile/run-context.js';

/** A leg that moved in a run, with its amount and currency evaluated. */
export interface LegMovement {
  readonly id: string;
  readonly step: string;
  readonly direction: LegDirection;
  /** Decimal string at the amount's own scale, e.g. `"18450.00"`; never a JS number. */
  readonly amount: string;
  readonly currency: string;
}

/**
 * Thrown by {@link legMovements} when a moved leg's amount is not Money or its currency
 * not a string at run time (an expression that type-checks as `dyn`, or data missing).
 *
 * @example
 * ```ts
 * try { legMovements(compiled, context); } catch (error) {
 *   if (error instanceof LegEvaluationError) console.log(error.leg, error.message);
 * }
 * ```
 */
export class LegEvaluationError extends ProgramrunError {
  /** Id of the leg that could not be evaluated. */
  readonly leg: string;
  /** What went wrong, without the leg's name (e.g. `amount is not Money: string`). */
  readonly detail: string;

  constructor(leg: string, detail: string) {
    super('leg_evaluation_failed', `leg "${leg}": ${detail}`);
    this.leg = leg;
    this.detail = detail;
  }
}

/**
 * Values one leg against a run context: its amount (must be Money) and currency (a
 * non-empty string), evaluated with the scenario's CEL evaluator. Call it with the context
 * right after the leg's step completed to value each completion, as `@programrun/testing`
 * does for money conservation (a step a loop completes twice moves its legs twice).
 *
 * @example
 * ```ts
 * evaluateLeg(compiled, compiled.definition.legs[0]!, context);
 * // { id: 'hold_debit_available', step: 'hold_funds', direction: 'debit', amount: '18450.00', currency: 'EUR' }
 * ```
 */
export function evaluateLeg(
  compiled: Pick<CompiledScenario, 'evaluator'>,
  leg: LegDefinition,
  context: RunContext,
): LegMovement {
  const amount = compiled.evaluator.evaluate(leg.amount, context);
  if (!amount.ok) throw new LegEvaluationError(leg.id, `amount: ${amount.error}`);
  if (!(amount.value instanceof Money))
    throw new LegEvaluationError(leg.id, `amount is not Money: ${describe(amount.value)}`);
  const currency = compiled.evaluator.evaluate(leg.currency, context);
  if (!currency.ok) throw new LegEvaluationError(leg.id, `currency: ${currency.error}`);
  if (typeof currency.value !== 'string' || currency.value === '')
    throw new LegEvaluationError(leg.id, `currency is not a string: ${describe(currency.value)}`);
  return {
    id: leg.id,
    step: leg.step,
    direction: leg.direction,
    amount: amount.value.toString(),
    currency: currency.value,
  };
}

/**
 * The money legs a finished run's context shows as moved: every leg whose step's last
 * outcome is `completed` (`context.progress`), in declaration order, valued against that
 * final context. A step a loop completed several times counts once here; to value every
 * completion, call {@link evaluateLeg} after each one.
 *
 * @example
 * ```ts
 * const compiled = compile(text); // bank-payout@v1
 * legMovements(compiled, result.snapshot.context);
 * // [{ id: 'hold_debit_available', step: 'hold_funds', direction: 'debit', amount: '18450.00', currency: 'EUR' }, …]
 * ```
 */
export function legMovements(
  compiled: Pick<CompiledScenario, 'definition' | 'evaluator'>,
  context: RunContext,
): LegMovement[] {
  return compiled.definition.legs
    .filter((leg) => context.progress[leg.step] === 'completed')
    .map((leg) => evaluateLeg(compiled, leg, context));
}

function describe(value: unknown): string {
  return typeof value === 'string'
    ? `"${value}"`
    : typeof value === 'bigint'
      ? `${value}`
      : typeof value;
}
