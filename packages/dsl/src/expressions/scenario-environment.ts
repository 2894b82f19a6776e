import { Environment } from '@marcbachmann/cel-js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import { celShapeOfJsonSchema, storableCelType, type CelShape } from './cel-types.js';
import { collectExpressionSites, stepsWithPaths } from './expression-sites.js';
import { registerMoneyFunctions } from './money-functions.js';

/** Field types of each record step, inferred from its data expressions. */
export type RecordTypes = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The typed CEL environment of one scenario and the shapes used to revive stored values. */
export interface ScenarioEnvironment {
  readonly environment: Environment;
  readonly inputShape: CelShape;
  readonly recordTypes: RecordTypes;
}

const HANDOFF_SHAPE = { outcome: 'string', reference: 'string', data: 'map<string, dyn>' } as const;

function createEnvironment(
  scenario: ScenarioDefinition,
  inputShape: CelShape,
  recordTypes: RecordTypes,
): Environment {
  const steps = stepsWithPaths(scenario).map(({ step }) => step);
  const routes = Object.fromEntries(
    steps.filter((step) => step.kind === 'route').map((step) => [step.id, 'string']),
  );
  // A handoff whose simulated answer declares data fields is typed by them, so a typo in
  // `handoffs.x.data.feild` fails at load time instead of at run time.
  const handoffs = Object.fromEntries(
    steps.flatMap((step) => {
      if (step.kind !== 'handoff') return [];
      const declared = Object.keys(step.simulation?.data ?? {});
      const data =
        declared.length === 0
          ? HANDOFF_SHAPE.data
          : Object.fromEntries(declared.map((field) => [field, 'dyn']));
      return [[step.id, { ...HANDOFF_SHAPE, data }]];
    }),
  );
  const environment = registerMoneyFunctions(
    new Environment({ homogeneousAggregateLiterals: false }),
  )
    .registerVariable('environment', 'string', { description: '"test" or "live"' })
    .registerVariable('routes', {
      schema: routes,
      description: 'Chosen alternative id of each route step.',
    })
    .registerVariable('records', {
      schema: recordTypes,
      description: 'Data of each record step that has run.',
    })
    .registerVariable('handoffs', {
      schema: handoffs,
      description: 'Outcome, reference and data of each handoff.',
    });
  return typeof inputShape === 'string'
    ? environment.registerVariable('inputs', 'map<string, dyn>')
    : environment.registerVariable({ name: 'inputs', schema: inputShape });
}

/**
 * Builds the scenario's CEL environment. Record field types are inferred in two passes:
 * first with every record field `dyn`, then with the inferred types, so later
 * expressions are checked against what earlier records actually hold.
 */
export function buildScenarioEnvironment(scenario: ScenarioDefinition): ScenarioEnvironment {
  const inputShape = celShapeOfJsonSchema(scenario.inputs);
  const recordSteps = stepsWithPaths(scenario).flatMap(({ step }) =>
    step.kind === 'record' ? [step] : [],
  );
  const untyped: RecordTypes = Object.fromEntries(
    recordSteps.map((step) => [
      step.id,
      Object.fromEntries(Object.keys(step.data).map((field) => [field, 'dyn'])),
    ]),
  );
  const firstPass = createEnvironment(scenario, inputShape, untyped);
  const recordTypes: Record<string, Record<string, string>> = {};
  for (const site of collectExpressionSites(scenario)) {
    if (!site.recordField) continue;
    const checked = safeCheck(firstPass, site.source);
    const type = checked.valid ? storableCelType(checked.type) : 'dyn';
    (recordTypes[site.recordField.step] ??= {})[site.recordField.field] = type;
  }
  for (const step of recordSteps) recordTypes[step.id] ??= {};
  return {
    environment: createEnvironment(scenario, inputShape, recordTypes),
    inputShape,
    recordTypes,
  };
}

/** Result of type-checking one expression. */
export type CheckResult =
  | { readonly valid: true; readonly type: string }
  | { readonly valid: false; readonly message: string; readonly offset: number };

/**
 * Type-checks an expression without throwing; parse errors and type errors alike come
 * back with the character offset of the culprit.
 */
export function safeCheck(environment: Environment, source: string): CheckResult {
  try {
    const result = environment.check(source);
    if (result.valid) return { valid: true, type: String(result.type) };
    const error = result.error as { message?: string; range?: { start?: number } } | undefined;
    return {
      valid: false,
      message: (error?.message ?? 'invalid expression').split('\n')[0]!,
      offset: error?.range?.start ?? 0,
    };
  } catch (error) {
    const failure = error as { message?: string; range?: { start?: number } };
    return {
      valid: false,
      message: String(failure.message ?? error).split('\n')[0]!,
      offset: failure.range?.start ?? 0,
    };
  }
}
