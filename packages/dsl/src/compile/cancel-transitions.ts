import { fact, update, type TransitionSpec } from './machine-actions.js';
import type { RunEvent } from './run-context.js';

const reasonOf = (event: RunEvent): string =>
  event.type === 'run.cancel' ? event.reason : 'cancelled';

/**
 * `run.cancel` while a step waits: compensate completed steps first when any registered a
 * compensation, else end cancelled. Steps with a partner mid-execution (handoffs) do not
 * offer these: a cancel there is refused so no partner action is left unaccounted for.
 */
export function cancelTransitions(stage: string | null, step: string): TransitionSpec[] {
  const ending = update(({ event }) => ({
    ending: { status: 'cancelled', step, reason: 'cancel_requested', message: reasonOf(event) },
  }));
  return [
    {
      guard: ({ context }) => context.compensation_stack.length > 0,
      target: '#compensating',
      actions: [
        ending,
        fact(({ context, event }) => ({
          type: 'compensation.started',
          stage,
          step,
          data: {
            reason: 'cancel_requested',
            message: reasonOf(event),
            pending: [...context.compensation_stack].reverse(),
          },
        })),
      ],
    },
    {
      target: '#cancelled',
      actions: [
        ending,
        fact(({ event }) => ({
          type: 'run.cancelled',
          stage,
          step,
          data: { reason: 'cancel_requested', message: reasonOf(event) },
        })),
      ],
    },
  ];
}
