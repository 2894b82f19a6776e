import { createActor } from 'xstate';
import type { ScenarioMachine } from './build-machine.js';
import type { RunEvent, RunInput } from './run-context.js';

type Snapshot = ReturnType<ScenarioMachine['resolveState']>;

/** The scope XState runs a machine's step in. */
type MachineScope = Parameters<ScenarioMachine['transition']>[2];

/** An XState action as the machine hands it over, collected and never executed. */
type CollectedAction = Parameters<MachineScope['actionExecutor']>[0];

/** A machine's pure steps: the next snapshot and the actions it would run. */
export interface PureTransitions {
  initial(input: RunInput): [Snapshot, CollectedAction[]];
  next(snapshot: Snapshot, event: RunEvent): [Snapshot, CollectedAction[]];
}

/**
 * XState's pure `initialTransition` and `transition` for one scenario machine, without
 * their cost per call: each of those builds a throwaway actor, whose constructor computes
 * the machine's whole initial snapshot (every entry action and eventless transition) only
 * to discard it — as much work again as the step itself. A scenario machine invokes and
 * spawns nothing and its actions are only collected, so one inert scope serves every
 * call; each call runs to its end before the next starts and collects into its own list.
 */
export function pureTransitions(machine: ScenarioMachine): PureTransitions {
  let scope: MachineScope | undefined;
  const collecting = (actions: CollectedAction[]): MachineScope => {
    scope ??= inertScope(machine);
    scope.actionExecutor = (action) => void actions.push(action);
    return scope;
  };
  return {
    initial(input) {
      const actions: CollectedAction[] = [];
      return [machine.getInitialSnapshot(collecting(actions), input), actions];
    },
    next(snapshot, event) {
      const actions: CollectedAction[] = [];
      return [machine.transition(snapshot, event, collecting(actions)), actions];
    },
  };
}

/** A scope whose effects go nowhere, built once (as XState builds one per call). */
function inertScope(machine: ScenarioMachine): MachineScope {
  const self = createActor(machine, { input: { environment: 'test', inputs: {} } });
  return {
    self,
    defer: () => undefined,
    id: '',
    logger: () => undefined,
    sessionId: '',
    stopChild: () => undefined,
    system: self.system,
    emit: () => undefined,
    actionExecutor: () => undefined,
  } as MachineScope;
}
