// Inputs on both sides of the money literals a scenario's rules compare against: for each
// money input, each literal, one minor unit under it and one over it.
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
