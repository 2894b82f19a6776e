import type { Problem } from '../problem.js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { YamlSource } from '../source/yaml-source.js';

type Path = (string | number)[];

/**
 * Reports ids used twice. Stages, steps and compensations share one namespace (the
 * machine's state ids); rules, controls, invariants, legs, holds and route alternatives have their own.
 */
export function checkIdentifiers(scenario: ScenarioDefinition, source: YamlSource): Problem[] {
  const problems: Problem[] = [];
  const report = (namespace: string, entries: { id: string; path: Path }[]): void => {
    const first = new Map<string, Path>();
    for (const { id, path } of entries) {
      const earlier = first.get(id);
      if (!earlier) {
        first.set(id, path);
        continue;
      }
      const line = source.locate(earlier).line;
      problems.push(
        source.problemAt(
          'duplicate_id',
          `${namespace} id "${id}" is already used on line ${line}`,
          [...path, 'id'],
        ),
      );
    }
  };

  const flowIds: { id: string; path: Path }[] = [];
  scenario.stages.forEach((stage, stageIndex) => {
    flowIds.push({ id: stage.id, path: ['stages', stageIndex] });
    stage.steps.forEach((step, stepIndex) => {
      flowIds.push({ id: step.id, path: ['stages', stageIndex, 'steps', stepIndex] });
      if (step.kind === 'route') {
        report(
          `alternative of "${step.id}"`,
          step.alternatives.map((alternative, index) => ({
            id: alternative.id,
            path: ['stages', stageIndex, 'steps', stepIndex, 'alternatives', index],
          })),
        );
      }
    });
  });
  scenario.compensations.forEach((step, index) =>
    flowIds.push({ id: step.id, path: ['compensations', index] }),
  );
  report('stage/step', flowIds);
  report(
    'policy rule',
    scenario.policy.map((rule, index) => ({ id: rule.id, path: ['policy', index] })),
  );
  report(
    'control',
    scenario.controls.map((control, index) => ({ id: control.id, path: ['controls', index] })),
  );
  report(
    'invariant',
    scenario.invariants.map((item, index) => ({ id: item.id, path: ['invariants', index] })),
  );
  report(
    'leg',
    scenario.legs.map((leg, index) => ({ id: leg.id, path: ['legs', index] })),
  );
  report(
    'hold',
    scenario.holds.map((hold, index) => ({ id: hold.id, path: ['holds', index] })),
  );
  return problems;
}
