import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { StepDefinition, CompensationStep } from '../schema/step-schema.js';

/** Where a CEL expression sits in the scenario and what it must return. */
export interface ExpressionSite {
  readonly path: readonly (string | number)[];
  readonly source: string;
  /** `bool` for conditions; `any` for record and request fields; `Money` and `string` for legs. */
  readonly expects: 'bool' | 'any' | 'Money' | 'string';
  /** Set for record data fields: the record step and field the value is stored under. */
  readonly recordField?: { readonly step: string; readonly field: string };
}

/** Every step of the scenario with its path, stages first then compensations. */
export function stepsWithPaths(
  scenario: ScenarioDefinition,
): { step: StepDefinition | CompensationStep; path: (string | number)[]; stage: string | null }[] {
  const steps = scenario.stages.flatMap((stage, stageIndex) =>
    stage.steps.map((step, stepIndex) => ({
      step: step,
      path: ['stages', stageIndex, 'steps', stepIndex] as (string | number)[],
      stage: stage.id,
    })),
  );
  const compensations = scenario.compensations.map((step, index) => ({
    step: step,
    path: ['compensations', index] as (string | number)[],
    stage: null,
  }));
  return [...steps, ...compensations];
}

/**
 * Lists every CEL expression of a scenario with its path.
 */
export function collectExpressionSites(scenario: ScenarioDefinition): ExpressionSite[] {
  const sites: ExpressionSite[] = scenario.policy.map((rule, index) => ({
    path: ['policy', index, 'when'],
    source: rule.when,
    expects: 'bool',
  }));
  for (const { step, path } of stepsWithPaths(scenario)) {
    if (step.when !== undefined)
      sites.push({ path: [...path, 'when'], source: step.when, expects: 'bool' });
    if (step.kind === 'route') {
      step.alternatives.forEach((alternative, index) =>
        sites.push({
          path: [...path, 'alternatives', index, 'when'],
          source: alternative.when,
          expects: 'bool',
        }),
      );
    }
    if (step.kind === 'record') {
      for (const [field, source] of Object.entries(step.data)) {
        sites.push({
          path: [...path, 'data', field],
          source,
          expects: 'any',
          recordField: { step: step.id, field },
        });
      }
    }
    if (step.kind === 'handoff') {
      for (const [field, source] of Object.entries(step.request ?? {})) {
        sites.push({ path: [...path, 'request', field], source, expects: 'any' });
      }
      for (const [field, source] of Object.entries(step.simulation?.data ?? {})) {
        sites.push({ path: [...path, 'simulation', 'data', field], source, expects: 'any' });
      }
    }
  }
  scenario.legs.forEach((leg, index) => {
    sites.push(
      { path: ['legs', index, 'amount'], source: leg.amount, expects: 'Money' },
      { path: ['legs', index, 'currency'], source: leg.currency, expects: 'string' },
    );
  });
  return sites;
}
