// The inputs a migration gives moved runs (`context.inputs`): each names an input of the new
// version and is a CEL expression over the old run, of the type the new input takes; and
// every input the new version requires that runs of the old one may lack is given.
import { safeCheck } from '../expressions/scenario-environment.js';
import type { Problem } from '../problem.js';
import type { YamlSource } from '../source/yaml-source.js';
import type { MigrationDefinition } from './migration-schema.js';
import type { Side } from './upgrade-side.js';

/** The JSON type each CEL type becomes once evaluated (money is a decimal string). */
const JSON_TYPE_OF_CEL: Readonly<Record<string, string>> = {
  string: 'string',
  bool: 'boolean',
  int: 'integer',
  uint: 'integer',
  double: 'number',
  Money: 'string',
};

interface InputSchema {
  readonly required: readonly string[];
  readonly properties: Readonly<Record<string, { readonly type?: unknown }>>;
}

/** The required fields and the properties of a version's input schema. */
function inputSchema(side: Side): InputSchema {
  const schema = side.scenario.definition.inputs as {
    readonly required?: unknown;
    readonly properties?: unknown;
  };
  const required = Array.isArray(schema.required)
    ? schema.required.filter((field): field is string => typeof field === 'string')
    : [];
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null
      ? (schema.properties as InputSchema['properties'])
      : {};
  return { required, properties };
}

/** Whether a value of JSON type `given` fits a schema `type` (absent: anything fits). */
function fits(given: string, type: unknown): boolean {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  return types.includes(given) || (given === 'integer' && types.includes('number'));
}

/**
 * Why the inputs moved runs would carry are wrong: a `context.inputs` entry naming no input
 * of the new version (`upgrade_unknown_input`), an expression that does not type-check
 * against the old version or gives a type the input does not take (`invalid_expression`,
 * at the character in the migration), and an input the new version requires but the old
 * one did not, with nothing in the migration to give it (`upgrade_missing_data`, at the
 * new version's `required`).
 */
export function inputProblems(
  from: Side,
  to: Side,
  migration: MigrationDefinition | undefined,
  migrationSource: YamlSource | undefined,
): Problem[] {
  const problems: Problem[] = [];
  const given = migration?.context.inputs ?? {};
  const next = inputSchema(to);
  for (const [field, source] of Object.entries(given)) {
    const path = ['context', 'inputs', field];
    const property = next.properties[field];
    if (property === undefined) {
      problems.push(
        migrationSource!.problemAt(
          'upgrade_unknown_input',
          `"${field}" is not an input of ${to.scenario.id}`,
          path,
        ),
      );
      continue;
    }
    const checked = safeCheck(from.scenario.expressions.environment, source);
    if (!checked.valid) {
      problems.push(
        migrationSource!.problemAt(
          'invalid_expression',
          `${checked.message} (evaluated on runs of ${from.scenario.id})`,
          path,
          migrationSource!.locateInScalar(path, checked.offset),
        ),
      );
      continue;
    }
    const json = JSON_TYPE_OF_CEL[checked.type];
    if (json !== undefined && !fits(json, property.type)) {
      problems.push(
        migrationSource!.problemAt(
          'invalid_expression',
          `input "${field}" of ${to.scenario.id} is ${JSON.stringify(property.type)}, but this gives ${checked.type}`,
          path,
        ),
      );
    }
  }
  const before = new Set(inputSchema(from).required);
  next.required.forEach((field, index) => {
    if (before.has(field) || field in given) return;
    problems.push(
      to.source.problemAt(
        'upgrade_missing_data',
        `runs of ${from.scenario.id} may have no input "${field}", which ${to.scenario.id} requires: give it under context.inputs in the migration`,
        ['inputs', 'required', index],
      ),
    );
  });
  return problems;
}
