// Inputs at the edges of what a scenario decides on and accepts: money on both sides of the
// literals its rules compare against (each literal, one minor unit under it and one over
// it), and plain text at its length bounds.
import { Money, type CompiledScenario } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import type { GateReads } from './gate-reads.js';

type Schema = Readonly<Record<string, unknown>>;

/** The literal, one minor unit under it and one over it (at the literal's own scale). */
function around(literal: string): string[] {
  const amount = Money.parse(literal);
  const scale = literal.split('.')[1]?.length ?? 0;
  const unit = Money.fromMinorUnits(1n, scale);
  return [amount.subtract(unit), amount, amount.add(unit)].map((value) => value.toString());
}

/** The top-level input fields of format `money`. */
function moneyFields(compiled: CompiledScenario): string[] {
  const properties = ((compiled.definition.inputs as Schema).properties ?? {}) as Record<
    string,
    Schema
  >;
  return Object.entries(properties)
    .filter(([, schema]) => schema.type === 'string' && schema.format === 'money')
    .map(([name]) => name);
}

/**
 * Amounts at, just under and just over each money literal the scenario's conditions
 * compare against, for each money input field: the values that put a limit or review
 * rule on either side. Only amounts the field accepts are listed.
 *
 * @example
 * ```ts
 * boundaryAmounts(compiled, gateReads(compiled)).get('amount');
 * // ['49999.99', '50000.00', '50000.01', '999999.99', '1000000.00', '1000000.01']
 * ```
 */
export function boundaryAmounts(
  compiled: CompiledScenario,
  reads: GateReads,
): ReadonlyMap<string, readonly string[]> {
  const amounts = new Map<string, string[]>();
  const base = (compiled.definition.example_inputs ?? {}) as JsonObject;
  for (const field of moneyFields(compiled)) {
    const values = reads.moneyLiterals
      .flatMap(around)
      .filter((value) =>
        compiled.inputs
          .validate({ ...base, [field]: value })
          .every((issue) => issue.pointer !== `/${field}`),
      );
    if (values.length > 0) amounts.set(field, [...new Set(values)]);
  }
  return amounts;
}

/**
 * Text at each end of what each plain text input (no enum, format or pattern) accepts:
 * the example's text (or `x`s) cut or padded to its `minLength`, and to its `maxLength`
 * (lengths as the validator counts them, in code points). Only texts the field accepts.
 *
 * @example
 * ```ts
 * boundaryLengths(compiled).get('reference'); // ['x', 'xxxx…x' (its maxLength)]
 * ```
 */
export function boundaryLengths(
  compiled: CompiledScenario,
): ReadonlyMap<string, readonly string[]> {
  const properties = ((compiled.definition.inputs as Schema).properties ?? {}) as Record<
    string,
    Schema
  >;
  const base = (compiled.definition.example_inputs ?? {}) as JsonObject;
  const lengths = new Map<string, string[]>();
  for (const [field, schema] of Object.entries(properties)) {
    if (schema.type !== 'string' || 'enum' in schema || 'format' in schema || 'pattern' in schema)
      continue;
    const bounds = [schema.minLength, schema.maxLength].filter(
      (bound): bound is number => typeof bound === 'number' && bound >= 0 && bound <= 10_000,
    );
    const seed = [...(typeof base[field] === 'string' && base[field] !== '' ? base[field] : 'x')];
    const values = bounds
      .map((length) => Array.from({ length }, (_, index) => seed[index % seed.length]!).join(''))
      .filter((value) =>
        compiled.inputs
          .validate({ ...base, [field]: value })
          .every((issue) => issue.pointer !== `/${field}`),
      );
    if (values.length > 0) lengths.set(field, [...new Set(values)]);
  }
  return lengths;
}

/**
 * The boundary values of a scenario's inputs, by field: money at and beside the literals
 * its rules compare against ({@link boundaryAmounts}), and text at its length bounds
 * ({@link boundaryLengths}).
 *
 * @example
 * ```ts
 * boundaryInputs(compiled, gateReads(compiled)).get('amount'); // ['49999.99', '50000.00', …]
 * ```
 */
export function boundaryInputs(
  compiled: CompiledScenario,
  reads: GateReads,
): ReadonlyMap<string, readonly string[]> {
  const values = new Map<string, readonly string[]>(boundaryAmounts(compiled, reads));
  for (const [field, texts] of boundaryLengths(compiled))
    values.set(field, [...(values.get(field) ?? []), ...texts]);
  return values;
}
