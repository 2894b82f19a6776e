import type { ScenarioEnvironment } from '../expressions/scenario-environment.js';
import { reviveForCel, toJsonValue } from '../expressions/cel-types.js';
import type { RunContext } from './run-context.js';

/** Result of evaluating a map of field expressions. */
export type FieldsResult =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly error: string };

/** Result of evaluating one expression: never throws. */
export type Evaluation =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

type Compiled = (activation: Record<string, unknown>) => unknown;

/**
 * Evaluates a scenario's CEL expressions against a run context. Expressions are parsed
 * once; stored JSON is revived (BigInt, Money) before CEL sees it; errors come back as data.
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

  constructor(scenario: ScenarioEnvironment) {
    this.#scenario = scenario;
  }

  /** Evaluates `source`; the value is whatever CEL returns (BigInt, Money, string…). */
  evaluate(source: string, context: RunContext): Evaluation {
    try {
      return { ok: true, value: this.#compiled(source)(this.#activation(context)) };
    } catch (error) {
      return {
        ok: false,
        error: error instanceof Error ? error.message.split('\n')[0]! : String(error),
      };
    }
  }

  /** Evaluates a condition; anything but `true` is false, errors are reported. */
  condition(
    source: string,
    context: RunContext,
  ): { readonly value: boolean; readonly error: string | null } {
    const result = this.evaluate(source, context);
    return result.ok
      ? { value: result.value === true, error: null }
      : { value: false, error: result.error };
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
        result = { ok: false, error: `${name}: ${evaluation.error}` };
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

  #compiled(source: string): Compiled {
    let compiled = this.#parsed.get(source);
    if (!compiled) {
      compiled = this.#scenario.environment.parse(source) as Compiled;
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
