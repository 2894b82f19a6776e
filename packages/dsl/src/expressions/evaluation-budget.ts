/**
 * How many steps one evaluation of one CEL expression may take. A step is one node of
 * the expression evaluated (each iteration of a comprehension evaluates its body again),
 * plus, for operations whose cost grows with their data, one per element or character
 * they read: both sides of `==`, a list on the right of `in`, strings and lists given to
 * `+`, comparisons and functions, the text a regular expression scans. An expression
 * over the budget faults the run with `expression_budget_exceeded`; a scenario whose
 * expression provably exceeds it is refused at load time. About 20 ms of work.
 *
 * @example
 * ```ts
 * EXPRESSION_BUDGET; // 100_000
 * ```
 */
export const EXPRESSION_BUDGET = 100_000;

/** The fault reason and problem code of an expression over {@link EXPRESSION_BUDGET}. */
export const BUDGET_EXCEEDED = 'expression_budget_exceeded';

const MESSAGE = `${BUDGET_EXCEEDED}: the expression took more than ${EXPRESSION_BUDGET.toLocaleString('en-US')} evaluation steps`;

/** True for the message of an evaluation stopped by the budget. */
export const isBudgetExceeded = (message: string | null | undefined): boolean =>
  message?.startsWith(`${BUDGET_EXCEEDED}:`) === true;

/** Thrown inside an evaluation when its meter runs out; never escapes the evaluator. */
export class ExpressionBudgetExceeded extends Error {
  constructor() {
    super(MESSAGE);
  }
}

/**
 * Counts the steps of one evaluation at a time (evaluation is synchronous) and stops it
 * once they pass the budget. Once exhausted it stays so until {@link reset}, so an error
 * a CEL macro swallows (`exists` ignores failing elements) still fails the evaluation.
 */
export class EvaluationMeter {
  readonly budget: number;
  #used = 0;

  constructor(budget = EXPRESSION_BUDGET) {
    this.budget = budget;
  }

  /** Starts counting a new evaluation. */
  reset(): void {
    this.#used = 0;
  }

  /** Adds `steps`; throws {@link ExpressionBudgetExceeded} past the budget. */
  charge(steps: number): void {
    this.#used += steps;
    if (this.#used > this.budget) throw new ExpressionBudgetExceeded();
  }

  /** True once the current evaluation passed the budget. */
  get exhausted(): boolean {
    return this.#used > this.budget;
  }

  /** Steps used by the current evaluation. */
  get used(): number {
    return this.#used;
  }
}
