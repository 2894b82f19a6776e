import type { FlowGraph } from '../graph/flow-graph.js';
import type { PolicyRule, ScenarioDefinition } from '../schema/scenario-schema.js';
import type { ExpressionEvaluator } from './expression-evaluator.js';
import type { StepExits } from './step-exits.js';

/** What every node builder needs. */
export interface BuildContext {
  readonly scenario: ScenarioDefinition;
  readonly graph: FlowGraph;
  readonly evaluator: ExpressionEvaluator;
  readonly rules: ReadonlyMap<string, PolicyRule>;
}

/** A state node of the generated config (plain object handed to XState). */
export type StateNodeConfig = Record<string, unknown>;

/** Builds the resting part (`active`) of one step. */
export type ActiveNodeBuilder<TStep> = (
  step: TStep,
  build: BuildContext,
  exits: StepExits,
  stage: string | null,
) => StateNodeConfig;
