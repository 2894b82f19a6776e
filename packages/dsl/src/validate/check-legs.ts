import type { Problem } from '../problem.js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { YamlSource } from '../source/yaml-source.js';
import { stepsWithPaths } from '../expressions/expression-sites.js';

/**
 * Reports legs whose `step` is neither a step of a stage nor a compensation
 * (`leg_unknown_step`). Duplicate leg ids are `duplicate_id` (check-identifiers) and the
 * amount and currency expressions are type-checked with every other expression.
 */
export function checkLegs(scenario: ScenarioDefinition, source: YamlSource): Problem[] {
  const steps = new Set(stepsWithPaths(scenario).map(({ step }) => step.id));
  return scenario.legs.flatMap((leg, index) =>
    steps.has(leg.step)
      ? []
      : [
          source.problemAt(
            'leg_unknown_step',
            `leg "${leg.id}" names step "${leg.step}", which is neither a step of a stage nor a compensation`,
            ['legs', index, 'step'],
          ),
        ],
  );
}
