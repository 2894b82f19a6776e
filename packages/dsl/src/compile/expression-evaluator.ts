import type { ScenarioEnvironment } from '../expressions/scenario-environment.js';
import { reviveForCel, toJsonValue } from '../expressions/cel-types.js';
import type { CelNode } from '../expressions/cel-ast.js';
import {
  BUDGET_EXCEEDED,
  EvaluationMeter,
  ExpressionBudgetExceeded,
} from '../expressions/evaluation-budget.js';
import { meterExpression } from '../expressions/metered-expression.js';
import type { RunContext } from './run-context.js';

/**
 * Why an evaluation failed: `expression_budget_exceeded` when it took more steps than
 * `EXPRESSION_BUDGET`, `expression_error` for anything else (a missing field, a bad
 * decimal, a division by zero…).
 */
export type EvaluationFailure = 'expression_error' | 'expression_budget_exceeded';

/** Result of evaluating a map of field expressions. */
export type FieldsResult =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly error: string; readonly code: EvaluationFailure };

/** Result of evaluating one expression: never throws. */
export type Evaluation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string; readonly code: EvaluationFailure };

type Compiled = (activation: Record<string, unknown>) => unknown;

/** The last result of an expression and the context parts it was computed from. */
interface RememberedEvaluation {
  readonly reads: readonly unknown[];
  readonly result: Evaluation;
}

interface Parsed {
  (activation: Record<string, unknown>): unknown;
  readonly ast: CelNode;
  check(): { readonly valid: boolean; readonly error?: unknown };
}

/**
 * Evaluates a scenario's CEL expressions against a run context. Expressions are parsed
 * once; stored JSON is revived (BigInt, Money) before CEL sees it; errors come back as data.
 * Every evaluation is metered: past `EXPRESSION_BUDGET` steps it stops and fails with
 * `expression_budget_exceeded`, and `matches()` runs on RE2. Results are remembered
 * while the context parts an expression reads stay the same objects, so guards asking
 * twice (and the transition that follows) evaluate once.
 *
 * @example
 * ```ts
 * const evaluator = new ExpressionEvaluator(loaded.expressions);
 * evaluator.evaluate('money(inputs.amount) <= money("10000.00")', context); // { ok: true, value: true }
 * ```
 */
export class ExpressionEvaluator {
  readonly #scenario: ScenarioEnvironment;
  readonly #parsed = new Map<string, Compiled>();
  readonly #activations = new WeakMap<RunContext, Record<string, unknown>>();
  readonly #revivedParts = new WeakMap<object, unknown>();
  readonly #fieldResults = new WeakMap<RunContext, Map<object, FieldsResult>>();
  readonly #results = new WeakMap<object, Map<string, RememberedEvaluation>>();
  readonly #meter = new EvaluationMeter();

  constructor(scenario: ScenarioEnvironment) {
    this.#scenario = scenario;
  }

  /** Evaluates `source`; the value is whatever CEL returns (BigInt, Money, string…). */
  evaluate(source: string, context: RunContext): Evaluation {
    // Keyed by what an expression can read, so a context that only changed elsewhere (its
    // ending, its progress) reuses the result: a costly expression is evaluated once.
    const reads = [context.environment, context.routes, context.records, context.handoffs];
    let results = this.#results.get(context.inputs);
    const known = results?.get(source);
    if (known && known.reads.every((part, index) => part === reads[index])) return known.result;
    const result = this.#evaluate(source, context);
    if (!results) {
      results = new Map();
      this.#results.set(context.inputs, results);
    }
    results.set(source, { reads, result });
    return result;
  }

  /** Evaluates a condition; anything but `true` is false, errors are reported. */
  condition(
    source: string,
    context: RunContext,
  ): {
    readonly value: boolean;
    readonly error: string | null;
    readonly code: EvaluationFailure | null;
  } {
    const result = this.evaluate(source, context);
    return result.ok
      ? { value: result.value === true, error: null, code: null }
      : { value: false, error: result.error, code: result.code };
  }

  /** Evaluates a map of field expressions into JSON, or reports the first failing field. */
  fields(fields: Readonly<Record<string, string>>, context: RunContext): FieldsResult {
    // A step's gate and its entry evaluate the same fields on the same context: reuse.
    let results = this.#fieldResults.get(context);
    const cached = results?.get(fields);
    if (cached) return cached;
    const value: Record<string, unknown> = {};
    let result: FieldsResult = { ok: true, value };
    for (const [name, source] of Object.entries(fields)) {
      const evaluation = this.evaluate(source, context);
      if (!evaluation.ok) {
        result = { ok: false, error: `${name}: ${evaluation.error}`, code: evaluation.code };
        break;
      }
      value[name] = toJsonValue(evaluation.value);
    }
    if (!results) {
      results = new Map();
      this.#fieldResults.set(context, results);
    }
    results.set(fields, result);
    return result;
  }

  #evaluate(source: string, context: RunContext): Evaluation {
    this.#meter.reset();
    try {
      const value = this.#compiled(source)(this.#activation(context));
      // A macro may have swallowed the budget's error (`exists` skips failing elements).
      return this.#meter.exhausted ? budgetExceeded() : { ok: true, value };
    } catch (error) {
      if (this.#meter.exhausted || error instanceof ExpressionBudgetExceeded)
        return budgetExceeded();
      return {
        ok: false,
        error: error instanceof Error ? error.message.split('\n')[0]! : String(error),
        code: 'expression_error',
      };
    }
  }

  /** The parsed, type-checked and metered expression; a type error is thrown when used. */
  #compiled(source: string): Compiled {
    let compiled = this.#parsed.get(source);
    if (!compiled) {
      const parsed = this.#scenario.environment.parse(source) as unknown as Parsed;
      const checked = parsed.check();
      if (checked.valid) {
        meterExpression(parsed.ast, this.#meter);
        compiled = parsed;
      } else {
        compiled = () => {
          throw checked.error;
        };
      }
      this.#parsed.set(source, compiled);
    }
    return compiled;
  }

  #activation(context: RunContext): Record<string, unknown> {
    let activation = this.#activations.get(context);
    if (!activation) {
      activation = {
        environment: context.environment,
        inputs: this.#revived(context.inputs, () =>
          reviveForCel(context.inputs, this.#scenario.inputShape),
        ),
        routes: context.routes,
        records: this.#revived(context.records, () => {
          const records: Record<string, unknown> = {};
          for (const [step, data] of Object.entries(context.records)) {
            records[step] = reviveForCel(data, this.#scenario.recordTypes[step] ?? {});
          }
          return records;
        }),
        handoffs: context.handoffs,
      };
      this.#activations.set(context, activation);
    }
    return activation;
  }

  /** Revived form of a context part, kept while the part is the same object. */
  #revived(part: object, revive: () => unknown): unknown {
    let revived = this.#revivedParts.get(part);
    if (revived === undefined) {
      revived = revive();
      this.#revivedParts.set(part, revived);
    }
    return revived;
  }
}

function budgetExceeded(): Evaluation {
  return { ok: false, error: new ExpressionBudgetExceeded().message, code: BUDGET_EXCEEDED };
}
