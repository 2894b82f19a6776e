// The inputs the directed search starts from: the example, the example with one field
// changed across what the conditions compare, and sampled inputs for input-decided edges.
import fc from 'fast-check';
import type { CompiledScenario } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import { boundaryInputs } from './boundary-inputs.js';
import type { GateReads } from './gate-reads.js';
import { inputGates } from './input-gates.js';
import { inputsArbitrary } from './inputs-arbitrary.js';

/** The scenario's example inputs, or else the first valid inputs of a fixed seed. */
export function baseInputs(compiled: CompiledScenario): JsonObject {
  const example = compiled.definition.example_inputs as JsonObject | undefined;
  if (example !== undefined && compiled.inputs.validate(example).length === 0) return example;
  return fc.sample(inputsArbitrary(compiled), { seed: 1, numRuns: 1 })[0]!;
}

/** Each value of each top-level input field with a closed set of values (enum, boolean). */
function choiceValues(compiled: CompiledScenario): [string, readonly unknown[]][] {
  const properties = ((compiled.definition.inputs as { properties?: unknown }).properties ??
    {}) as Record<string, { enum?: unknown; type?: unknown }>;
  return Object.entries(properties).flatMap(([field, schema]): [string, readonly unknown[]][] => {
    if (Array.isArray(schema.enum)) return [[field, schema.enum]];
    return schema.type === 'boolean' ? [[field, [true, false]]] : [];
  });
}

/** Each string literal the conditions compare an input with, and one they do not name. */
function comparedValues(reads: GateReads): [string, readonly string[]][] {
  return [...reads.inputLiterals].map(([field, literals]) => [
    field,
    [...literals, `${literals[0]!}_OTHER`, literals[0]!.split('').reverse().join('')],
  ]);
}

/**
 * The base inputs, then the base with one field changed: each money field at and beside
 * each literal the rules compare against, each plain text at its length bounds, each
 * string literal an input is compared with
 * (and one not named), each member of each enum, each boolean both ways; then, for each
 * edge the inputs alone decide that none of those takes, a sampled valid input that does.
 * With them, the input-decided edges no valid input tried takes (`inputGates`' `untaken`).
 */
export function startingInputs(
  compiled: CompiledScenario,
  base: JsonObject,
  reads: GateReads,
): { readonly inputs: JsonObject[]; readonly untaken: readonly string[] } {
  const starts = [base];
  const changes: [string, readonly unknown[]][] = [
    ...boundaryInputs(compiled, reads),
    ...comparedValues(reads),
    ...choiceValues(compiled),
  ];
  for (const [field, values] of changes)
    for (const value of values) {
      const inputs = { ...base, [field]: value } as JsonObject;
      if (value !== base[field] && compiled.inputs.validate(inputs).length === 0)
        starts.push(inputs);
    }
  // Inputs that take an edge the inputs alone decide (a route alternative needing several
  // fields at once, a rule only some inputs fail), when no start above takes it.
  const { witnesses, untaken } = inputGates(compiled, starts, reads);
  for (const inputs of witnesses.values()) if (!starts.includes(inputs)) starts.push(inputs);
  return { inputs: starts, untaken };
}
