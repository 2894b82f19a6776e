import type { Problem } from '../problem.js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { YamlSource } from '../source/yaml-source.js';
import {
  compileInputSchema,
  InputSchemaError,
  type InputValidator,
} from '../inputs/input-validator.js';
import { checkInputPatterns } from './check-input-patterns.js';

/** Result of {@link checkInputs}: the validator when the schema compiles, and problems. */
export interface InputCheck {
  readonly validator: InputValidator | undefined;
  readonly problems: Problem[];
}

const pointerSegments = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));

/**
 * Checks the input schema's regular expressions (RE2 dialect), compiles the schema and
 * validates `example_inputs` against it.
 */
export function checkInputs(scenario: ScenarioDefinition, source: YamlSource): InputCheck {
  const patternProblems = checkInputPatterns(scenario.inputs, source);
  if (patternProblems.length > 0) return { validator: undefined, problems: patternProblems };
  let validator: InputValidator;
  try {
    validator = compileInputSchema(scenario.inputs);
  } catch (error) {
    const message = error instanceof InputSchemaError ? error.message : String(error);
    const pointer = error instanceof InputSchemaError ? error.pointer : '';
    return {
      validator: undefined,
      problems: [
        source.problemAt('invalid_input_schema', message, ['inputs', ...pointerSegments(pointer)]),
      ],
    };
  }
  const problems = validator
    .validate(scenario.example_inputs)
    .map((issue) =>
      source.problemAt(
        'invalid_example_inputs',
        `example_inputs${issue.pointer} ${issue.message}`,
        ['example_inputs', ...pointerSegments(issue.pointer)],
      ),
    );
  return { validator, problems };
}
