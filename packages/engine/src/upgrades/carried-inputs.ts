import type { CompiledScenario, RunContext } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';

/** The inputs a moved run has on the new version, and those the migration gave it. */
export interface CarriedInputs {
  /** The run's inputs with the migration's: what the new version's expressions read. */
  readonly inputs: JsonObject;
  /** Only those the migration gave (empty without `context.inputs`), for the record. */
  readonly given: JsonObject;
}

/**
 * The inputs a run of `from` carries onto `to`: its own, with each of the migration's
 * `context.inputs` (field → CEL) evaluated on the run as `from` has it, checked against
 * `to`'s input schema. A string says why the run cannot move: an expression failed on this
 * run (a field it reads is absent, the budget ran out), or `to` refuses the inputs.
 */
export function carriedInputs(
  from: CompiledScenario,
  to: CompiledScenario,
  context: RunContext,
  expressions: Readonly<Record<string, string>>,
): CarriedInputs | string {
  let given: JsonObject = {};
  if (Object.keys(expressions).length > 0) {
    const evaluated = from.evaluator.fields(expressions, context);
    if (!evaluated.ok)
      return `the migration's input ${evaluated.error} (${evaluated.code} on this run)`;
    given = evaluated.value as JsonObject;
  }
  const inputs: JsonObject = { ...context.inputs, ...given };
  const [issue] = to.inputs.validate(inputs);
  if (issue) return `${to.id} refuses its inputs: ${issue.pointer} ${issue.message}`;
  return { inputs, given };
}
