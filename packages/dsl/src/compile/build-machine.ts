import { createMachine } from 'xstate';
import type { FlowGraph } from '../graph/flow-graph.js';
import type { BuildContext, StateNodeConfig } from './build-context.js';
import { fact, staticFact, type TransitionSpec } from './machine-actions.js';
import { initialRunContext, type RunInput } from './run-context.js';
import { compensationExits, mainStepExits } from './step-exits.js';
import { stepNode } from './step-node.js';

/** The compensation loop: run the stack's top compensation until empty, then end. */
function compensatingNode(build: BuildContext): StateNodeConfig {
  const nextTransitions: TransitionSpec[] = [
    ...build.scenario.compensations.map((step): TransitionSpec => ({
      guard: ({ context }) => context.compensation_stack.at(-1) === step.id,
      target: step.id,
      actions: [],
    })),
    {
      guard: ({ context }) => context.ending?.status === 'cancelled',
      target: '#cancelled',
      actions: [
        staticFact('compensation.completed', null, null),
        fact(({ context }) => ({
          type: 'run.cancelled',
          stage: null,
          step: context.ending?.step ?? null,
          data: {
            reason: context.ending?.reason ?? 'cancelled',
            message: context.ending?.message ?? null,
          },
        })),
      ],
    },
    {
      target: '#faulted',
      actions: [
        staticFact('compensation.completed', null, null),
        fact(({ context }) => ({
          type: 'run.faulted',
          stage: null,
          step: context.ending?.step ?? null,
          data: {
            reason: context.ending?.reason ?? 'faulted',
            message: context.ending?.message ?? null,
          },
        })),
      ],
    },
  ];
  const states: Record<string, StateNodeConfig> = { next: { always: nextTransitions } };
  for (const step of build.scenario.compensations) {
    states[step.id] = stepNode(step, build, compensationExits(step.id), null);
  }
  return { id: 'compensating', initial: 'next', states };
}

function stageNodes(build: BuildContext, graph: FlowGraph): Record<string, StateNodeConfig> {
  const nodes: Record<string, StateNodeConfig> = {};
  for (const stage of build.scenario.stages) {
    const states: Record<string, StateNodeConfig> = {};
    for (const step of stage.steps)
      states[step.id] = stepNode(step, build, mainStepExits(graph, step.id), stage.id);
    nodes[stage.id] = {
      id: stage.id,
      initial: stage.steps[0]!.id,
      entry: [staticFact('stage.started', stage.id, null)],
      states,
    };
  }
  return nodes;
}

/**
 * Thrown to end the initial snapshot XState computes for an inert actor (no input): made
 * once, so throwing it captures no stack trace.
 */
const NO_INPUT = new TypeError('a run starts with an input');

/**
 * Builds the pure XState v5 machine of a scenario: no `invoke`, no `after`, no side
 * effects. Lifecycle facts leave as emitted events; the engine records them, schedules
 * timers and talks to partners after the transition.
 */
export function buildMachine(build: BuildContext) {
  const { graph } = build;
  const config = {
    id: `${build.scenario.scenario}@${build.scenario.version}`,
    context: ({ input }: { input: RunInput | undefined }) => {
      // XState's pure `transition()` builds an inert actor whose constructor computes an
      // initial snapshot with no input, then discards it. Stop that computation at once
      // with an error made once (no stack trace captured on every transition).
      if (input === undefined) throw NO_INPUT;
      return initialRunContext(input);
    },
    initial: 'start',
    states: {
      start: { always: [{ target: `#${graph.start}` }] },
      ...stageNodes(build, graph),
      compensating: compensatingNode(build),
      completed: { id: 'completed', type: 'final' },
      faulted: { id: 'faulted', type: 'final' },
      cancelled: { id: 'cancelled', type: 'final' },
    },
  };
  return createMachine(config as unknown as Parameters<typeof createMachine>[0]);
}

/** The XState machine type of a compiled scenario. */
export type ScenarioMachine = ReturnType<typeof buildMachine>;
