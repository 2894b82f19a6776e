// Inputs that carry what a condition looks for inside them: `inputs.qr.contains("5802" +
// inputs.country)` holds on a sampled payload almost never. The checker writes the text the
// condition computes into the input, where the input's schema still accepts it.
import type { CompiledScenario, RunContext } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';

/** One `inputs.<field>.contains(<expression>)` of a condition, and the step it belongs to. */
export interface ContainsRead {
  readonly field: string;
  /** The CEL source of the argument. */
  readonly expression: string;
  /** The position of its step in the flow (conditions of earlier steps come first). */
  readonly order: number;
}

const CONTAINS_CALL = /\binputs\.([A-Za-z_][A-Za-z0-9_]*)\.contains\(/g;

/** The source of the call argument opening at `from`, up to its closing parenthesis. */
function argumentAt(source: string, from: number): string | undefined {
  let depth = 1;
  let quote: string | undefined;
  for (let index = from; index < source.length; index += 1) {
    const char = source[index]!;
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')' && (depth -= 1) === 0) return source.slice(from, index).trim();
  }
  return undefined;
}

interface Conditioned {
  readonly kind: string;
  readonly when?: string;
  readonly rules?: readonly string[];
  readonly alternatives?: readonly { readonly when: string }[];
}

/**
 * Every `inputs.<field>.contains(…)` in the scenario's conditions (step `when`s, the rules
 * of its gates, route alternatives), with the position of the step that reads it.
 */
export function containsReads(compiled: CompiledScenario): ContainsRead[] {
  const rules = new Map(
    (compiled.definition.policy as readonly { id: string; when: string }[]).map((rule) => [
      rule.id,
      rule.when,
    ]),
  );
  const steps = compiled.definition.stages.flatMap(
    (stage) => stage.steps,
  ) as readonly Conditioned[];
  return steps.flatMap((step, order) => {
    const sources = [
      ...(step.when === undefined ? [] : [step.when]),
      ...(step.kind === 'check' ? (step.rules ?? []) : []).flatMap((rule) => rules.get(rule) ?? []),
      ...(step.alternatives ?? []).map((alternative) => alternative.when),
    ];
    return sources.flatMap((source) =>
      [...source.matchAll(CONTAINS_CALL)].flatMap((match): ContainsRead[] => {
        const expression = argumentAt(source, match.index + match[0].length);
        return expression === undefined ? [] : [{ field: match[1]!, expression, order }];
      }),
    );
  });
}

/** `text` with `part` written in: at the middle, else after its first or before its last few characters. */
function placements(text: string, part: string): string[] {
  const middle = Math.floor(text.length / 2);
  return [middle, Math.min(6, text.length), Math.max(0, text.length - 8)].map(
    (at) => text.slice(0, at) + part + text.slice(at),
  );
}

/**
 * `inputs` with the text each of `reads` computes (in `context`, the run as created from
 * the inputs) written into its field where it is not yet there, all of a field's texts
 * side by side in the first place the input schema accepts them. The inputs as given when
 * nothing changed or nothing can be placed.
 */
export function withContainedText(
  compiled: CompiledScenario,
  inputs: JsonObject,
  context: RunContext,
  reads: readonly ContainsRead[],
): JsonObject {
  const parts = new Map<string, string[]>();
  for (const { field, expression } of reads) {
    const text = inputs[field];
    const evaluated = compiled.evaluator.fields({ part: expression }, context);
    const part = evaluated.ok ? (evaluated.value as { part?: unknown }).part : undefined;
    if (typeof text !== 'string' || typeof part !== 'string' || part === '' || text.includes(part))
      continue;
    const known = parts.get(field) ?? [];
    if (!known.includes(part)) parts.set(field, [...known, part]);
  }
  let current = inputs;
  for (const [field, written] of parts) {
    const placed = placements(current[field] as string, written.join(''))
      .map((candidate) => ({ ...current, [field]: candidate }))
      .find((candidate) => compiled.inputs.validate(candidate).length === 0);
    if (placed) current = placed;
  }
  return current;
}
