import { canonicalDigest, type Sha256Digest } from '@programrun/evidence';
import { sortProblems, type Problem } from './problem.js';
import { scenarioSchema, type ScenarioDefinition } from './schema/scenario-schema.js';
import { YamlSource } from './source/yaml-source.js';
import { schemaProblems } from './source/schema-problems.js';
import { isUnderRepaired, salvageDefinition } from './source/salvage.js';
import { buildFlowGraph, type FlowGraph } from './graph/flow-graph.js';
import { collectExpressionSites, stepsWithPaths } from './expressions/expression-sites.js';
import {
  buildScenarioEnvironment,
  type ScenarioEnvironment,
} from './expressions/scenario-environment.js';
import type { InputValidator } from './inputs/input-validator.js';
import { checkIdentifiers } from './validate/check-identifiers.js';
import { checkReferences } from './validate/check-references.js';
import { checkFlow } from './validate/check-flow.js';
import { checkHolds } from './validate/check-holds.js';
import { checkInvariants } from './validate/check-invariants.js';
import { checkExpressions } from './validate/check-expressions.js';
import { checkExpressionCost } from './validate/check-expression-cost.js';
import { checkExpressionRegexes } from './validate/check-expression-regexes.js';
import { checkInputs } from './validate/check-inputs.js';
import { checkLegs } from './validate/check-legs.js';

/** The last segment of a path, `/` or `\\` separated (no `node:path` in the core). */
const baseName = (file: string): string => file.split(/[\\/]/).pop() ?? file;

/** A scenario that passed every check, ready for `compile()`. */
export interface LoadedScenario {
  /** `<scenario>@<version>`, e.g. `qr-merchant-settlement@v1`. */
  readonly id: string;
  readonly definition: ScenarioDefinition;
  /** sha-256 of the RFC 8785 canonical JSON of the parsed YAML (comments and layout do not count). */
  readonly digest: Sha256Digest;
  readonly graph: FlowGraph;
  readonly expressions: ScenarioEnvironment;
  readonly inputs: InputValidator;
  readonly file: string | undefined;
}

/** Result of loading: the scenario, or every problem found. */
export type LoadResult =
  | { readonly ok: true; readonly scenario: LoadedScenario; readonly problems: readonly [] }
  | { readonly ok: false; readonly scenario?: undefined; readonly problems: readonly Problem[] };

/** Options of {@link loadScenario}. */
export interface LoadOptions {
  /** File name used in problems; when it is set the base name must be `<id>.yaml`. */
  readonly file?: string;
}

/**
 * Parses and checks a scenario, reporting **every** problem at once with its line and
 * column: YAML syntax, schema, duplicate ids, unknown parties, dangling references,
 * unreachable steps, loops that never wait, CEL type errors, expressions whose cost
 * exceeds the evaluation budget, regular expressions RE2 refuses, a bad input schema or
 * example inputs, invariants that name unknown steps or can be broken, and money legs
 * on unknown steps or with mistyped amounts or currencies.
 *
 * @example
 * ```ts
 * const result = loadScenario(text, { file: 'scenarios/wallet-delivery@v1.yaml' });
 * if (!result.ok) for (const problem of result.problems) console.error(formatProblem(problem));
 * ```
 */
export function loadScenario(text: string, options: LoadOptions = {}): LoadResult {
  const source = new YamlSource(text, options.file);
  if (source.syntaxProblems.length > 0)
    return { ok: false, problems: sortProblems(source.syntaxProblems) };

  const parsed = scenarioSchema.safeParse(source.data);
  const problems: Problem[] = [];
  let definition: ScenarioDefinition;
  let repaired: (string | number)[][] = [];
  let flowRepaired = false;
  let inputsRepaired = false;
  if (parsed.success) {
    definition = parsed.data;
  } else {
    problems.push(...schemaProblems(parsed.error.issues, source, source.data));
    const salvage = salvageDefinition(source.data, parsed.error.issues);
    if (!salvage) return { ok: false, problems: sortProblems(problems) };
    ({ definition, flowRepaired, inputsRepaired } = salvage);
    repaired = salvage.repaired.map((path) => [...path]);
  }

  const id = `${definition.scenario}@${definition.version}`;
  if (options.file !== undefined && parsed.success && baseName(options.file) !== `${id}.yaml`) {
    problems.push(
      source.problemAt('file_name_mismatch', `file must be named ${id}.yaml`, ['scenario']),
    );
  }
  const stepPaths = new Map(stepsWithPaths(definition).map(({ step, path }) => [step.id, path]));
  const graph = buildFlowGraph(definition);
  const semantic: Problem[] = [
    ...checkIdentifiers(definition, source),
    ...checkReferences(definition, source),
    ...checkLegs(definition, source),
  ];
  if (!flowRepaired) {
    semantic.push(
      ...checkFlow(graph, source, stepPaths),
      ...checkInvariants(definition, graph, source),
      ...checkHolds(definition, graph, source),
    );
  }
  const expressions = buildScenarioEnvironment(definition);
  let validator: InputValidator | undefined;
  if (!inputsRepaired) {
    const sites = collectExpressionSites(definition);
    semantic.push(
      ...checkExpressions(sites, expressions.environment, source),
      ...checkExpressionRegexes(sites, expressions.environment, source),
      ...checkExpressionCost(sites, expressions.environment, definition.inputs, source),
    );
    const inputCheck = checkInputs(definition, source);
    validator = inputCheck.validator;
    semantic.push(...inputCheck.problems);
  }
  problems.push(...semantic.filter((problem) => !isUnderRepaired(problem.path, repaired)));

  if (problems.length > 0 || !parsed.success || !validator)
    return { ok: false, problems: sortProblems(problems) };
  return {
    ok: true,
    problems: [],
    scenario: {
      id,
      definition,
      digest: canonicalDigest(source.data),
      graph,
      expressions,
      inputs: validator,
      file: options.file,
    },
  };
}
