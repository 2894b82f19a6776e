import type { FlowGraph } from '../graph/flow-graph.js';
import {
  fact,
  staticFact,
  update,
  type ActionArgs,
  type MachineAction,
  type TransitionSpec,
} from './machine-actions.js';
import type { StepProgress } from './run-context.js';

/** Records how `step` ended in the context's `progress`. */
function markProgress(step: string, progress: StepProgress): MachineAction {
  return update(({ context }) => ({ progress: { ...context.progress, [step]: progress } }));
}

/** Why a run is faulting or compensating: the step and a stable reason code. */
export interface FaultCause {
  readonly step: string;
  readonly reason: string;
  /** Detail computed from the context when the transition runs (e.g. an expression error). */
  readonly message?: (args: ActionArgs) => string | null;
}

/** How a step leaves: the builders of step nodes call these and never name targets. */
export interface StepExits {
  /** Success, or the chosen route alternative's `next` when `target` is given. */
  success(actions: readonly MachineAction[], target?: string): TransitionSpec[];
  /** A failure path (`on_reject`, `on_fail`, `on_timeout`, `on_no_route`) to `target`. */
  failure(target: string, cause: FaultCause, actions: readonly MachineAction[]): TransitionSpec[];
  /** The step's `when` was false. */
  skip(actions: readonly MachineAction[]): TransitionSpec[];
  /** Fault right away (expression errors, failed compensations). */
  fault(cause: FaultCause, actions: readonly MachineAction[]): TransitionSpec[];
}

/** Reason codes when success routes straight to an ending (e.g. `next: fault`). */
const DEFAULT_REASONS: Readonly<Record<string, string>> = {
  fault: 'faulted',
  compensate: 'compensate',
  cancel: 'cancelled',
};

/** Sets the run's ending from a cause. */
function setEnding(status: 'faulted' | 'cancelled', cause: FaultCause): MachineAction {
  return update((args) => ({
    ending: {
      status,
      step: cause.step,
      reason: cause.reason,
      message: cause.message?.(args) ?? null,
    },
  }));
}

/** The `run.faulted` / `run.cancelled` fact of a cause. */
function endingFact(
  type: 'run.faulted' | 'run.cancelled',
  cause: FaultCause,
  stage: string | null,
): MachineAction {
  return fact((args) => ({
    type,
    stage,
    step: cause.step,
    data: { reason: cause.reason, message: cause.message?.(args) ?? null },
  }));
}

/** The `compensation.started` fact, listing what will run, last registered first. */
function compensationStarted(cause: FaultCause, stage: string | null): MachineAction {
  return fact(({ context }) => ({
    type: 'compensation.started',
    stage,
    step: cause.step,
    data: { reason: cause.reason, pending: [...context.compensation_stack].reverse() },
  }));
}

function faultActions(cause: FaultCause, stage: string | null): MachineAction[] {
  return [setEnding('faulted', cause), endingFact('run.faulted', cause, stage)];
}

/**
 * Exits of a main-flow step: targets resolved against the graph, stage completion
 * emitted when the flow moves forward into a later stage.
 */
export function mainStepExits(graph: FlowGraph, stepId: string): StepExits {
  const step = graph.steps.get(stepId)!;
  const stage = step.stage;
  const stageIndex = (id: string | null): number =>
    graph.stages.findIndex((candidate) => candidate.id === id);
  const following = graph.order[graph.order.indexOf(stepId) + 1] ?? 'complete';
  const defaultSuccess = step.definition.next ?? following;

  const enter = (
    target: string,
    cause: FaultCause | undefined,
    actions: readonly MachineAction[],
  ): TransitionSpec[] => {
    const why = cause ?? { step: stepId, reason: DEFAULT_REASONS[target] ?? target };
    switch (target) {
      case 'complete':
        return [
          {
            target: '#completed',
            actions: [
              ...actions,
              staticFact('stage.completed', stage, null),
              staticFact('run.completed', null, null),
            ],
          },
        ];
      case 'fault':
        return [{ target: '#faulted', actions: [...actions, ...faultActions(why, stage)] }];
      case 'compensate':
        return [
          {
            target: '#compensating',
            actions: [...actions, setEnding('faulted', why), compensationStarted(why, stage)],
          },
        ];
      case 'cancel':
        // Compensate first when anything was registered, then end cancelled.
        return [
          {
            guard: ({ context }) => context.compensation_stack.length > 0,
            target: '#compensating',
            actions: [...actions, setEnding('cancelled', why), compensationStarted(why, stage)],
          },
          {
            target: '#cancelled',
            actions: [
              ...actions,
              setEnding('cancelled', why),
              endingFact('run.cancelled', why, stage),
            ],
          },
        ];
    }
    const targetStage = graph.steps.get(target)?.stage ?? null;
    const moves: MachineAction[] = [];
    if (targetStage !== stage && stageIndex(targetStage) > stageIndex(stage)) {
      moves.push(staticFact('stage.completed', stage, null));
    } else if (targetStage !== stage) {
      // A jump back (re-quote, repair): the stage left will run again.
      moves.push(staticFact('stage.rewound', stage, null, { to: targetStage }));
    }
    return [{ target: `#${target}`, actions: [...actions, ...moves] }];
  };

  const pivot: MachineAction[] = step.definition.pivot
    ? [
        // Recorded even when nothing was registered: passing the point of no return is a fact.
        fact(({ context }) => ({
          type: 'compensation.discharged',
          stage,
          step: stepId,
          data: { discharged: [...context.compensation_stack].reverse() },
        })),
        update(() => ({ compensation_stack: [] })),
      ]
    : [];

  return {
    success: (actions, target) =>
      enter(target ?? defaultSuccess, undefined, [
        markProgress(stepId, 'completed'),
        ...actions,
        ...pivot,
      ]),
    failure: (target, cause, actions) =>
      enter(target, cause, [markProgress(stepId, 'failed'), ...actions]),
    skip: (actions) => enter(following, undefined, [markProgress(stepId, 'skipped'), ...actions]),
    fault: (cause, actions) => enter('fault', cause, [markProgress(stepId, 'failed'), ...actions]),
  };
}

/**
 * Exits of a compensation step: success pops the stack and returns to the compensation
 * loop; any failure faults the run with `compensation_failed` for manual repair.
 */
export function compensationExits(stepId: string): StepExits {
  const pop = update(({ context }) => ({
    compensation_stack: context.compensation_stack.slice(0, -1),
  }));
  const fault = (cause: FaultCause, actions: readonly MachineAction[]): TransitionSpec[] => [
    {
      target: '#faulted',
      actions: [markProgress(stepId, 'failed'), ...actions, ...faultActions(cause, null)],
    },
  ];
  return {
    success: (actions) => [
      {
        target: '#compensating.next',
        actions: [markProgress(stepId, 'completed'), ...actions, pop],
      },
    ],
    failure: (_target, cause, actions) =>
      fault(
        {
          step: stepId,
          reason: 'compensation_failed',
          message: () => `${cause.reason} during compensation`,
        },
        actions,
      ),
    skip: (actions) => [{ target: '#compensating.next', actions: [...actions, pop] }],
    fault,
  };
}
