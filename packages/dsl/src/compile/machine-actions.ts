import { assign, emit, enqueueActions } from 'xstate';
import type { JsonObject } from '@programrun/evidence';
import type { EmittedFact, RunContext, RunEvent } from './run-context.js';

/** What guards and actions receive. */
export interface ActionArgs {
  readonly context: RunContext;
  readonly event: RunEvent;
}

/** A guard over context and event. */
export type Guard = (args: ActionArgs) => boolean;
/** An XState action object (assign, emit or enqueueActions), opaque to the builders. */
export type MachineAction =
  ReturnType<typeof assign> | ReturnType<typeof emit> | ReturnType<typeof enqueueActions>;

/** One transition of the generated config. */
export interface TransitionSpec {
  readonly target?: string;
  readonly guard?: Guard;
  readonly actions: readonly MachineAction[];
}

/** A context update (XState `assign`), typed for the run context. */
export function update(patch: (args: ActionArgs) => Partial<RunContext>): MachineAction {
  return assign(patch as never);
}

/** A lifecycle fact (XState `emit`), computed from the context at that point. */
export function fact(build: (args: ActionArgs) => EmittedFact): MachineAction {
  return emit(build as never);
}

/** A lifecycle fact emitted only when `build` returns one. */
export function factIf(build: (args: ActionArgs) => EmittedFact | undefined): MachineAction {
  return enqueueActions(({ context, event, enqueue }) => {
    const built = build({ context, event } as ActionArgs);
    if (built) enqueue.emit(built);
  });
}

/** A fixed fact. */
export function staticFact(
  type: string,
  stage: string | null,
  step: string | null,
  data: JsonObject = {},
): MachineAction {
  return emit({ type, stage, step, data } as never);
}

/** Both guards must hold (a missing guard holds). */
export function both(first: Guard | undefined, second: Guard | undefined): Guard | undefined {
  if (!first) return second;
  if (!second) return first;
  return (args) => first(args) && second(args);
}

/** Adds a guard and leading actions to transitions built elsewhere. */
export function withGuard(
  transitions: readonly TransitionSpec[],
  guard: Guard | undefined,
  leading: readonly MachineAction[] = [],
): TransitionSpec[] {
  return transitions.map((transition) => {
    const combined = both(guard, transition.guard);
    return {
      ...(transition.target === undefined ? {} : { target: transition.target }),
      ...(combined === undefined ? {} : { guard: combined }),
      actions: [...leading, ...transition.actions],
    };
  });
}
