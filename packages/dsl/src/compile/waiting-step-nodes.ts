import type { JsonObject } from '@programrun/evidence';
import type { ApprovalStep, HandoffStep, WaitStep } from '../schema/step-schema.js';
import { approvalDecisionTransitions, beginAttempt, isTimerFor } from './approval-handling.js';
import type { ActiveNodeBuilder } from './build-context.js';
import { cancelTransitions } from './cancel-transitions.js';
import { fact, update, withGuard, type Guard } from './machine-actions.js';
import type { RunEvent } from './run-context.js';

type Outcome = Extract<RunEvent, { type: 'handoff.outcome' }>;

/** `{ answered_by }` when the answer names who sent it, else nothing. */
const answeredBy = ({ answered_by: sender }: Outcome) =>
  sender === undefined
    ? {}
    : { answered_by: { actor: sender.actor, credential_id: sender.credential_id } };

/** An approval: waits for decisions until quorum, a reject, expiry or a cancel. */
export const approvalNode: ActiveNodeBuilder<ApprovalStep> = (step, _build, exits, stage) => ({
  entry: [
    beginAttempt(step.id),
    fact(({ context }) => ({
      type: 'approval.requested',
      stage,
      step: step.id,
      data: {
        approvers: step.approvers,
        quorum: step.quorum,
        maker_checker: step.maker_checker,
        expires: step.expires,
        attempt: context.attempts[step.id] ?? 1,
      },
    })),
  ],
  on: {
    'approval.decision': approvalDecisionTransitions(
      {
        step: step.id,
        stage,
        quorum: step.quorum,
        makerChecker: step.maker_checker,
        onReject: step.on_reject,
        rejectCause: { step: step.id, reason: 'approval_rejected' },
      },
      exits,
    ),
    'timer.fired': withGuard(
      exits.failure(step.on_timeout, { step: step.id, reason: 'approval_expired' }, [
        fact(() => ({
          type: 'approval.expired',
          stage,
          step: step.id,
          data: { expires: step.expires },
        })),
      ]),
      isTimerFor(step.id),
    ),
    'run.cancel': cancelTransitions(stage, step.id),
  },
});

/**
 * A handoff: asks the appointed party to execute (with a deterministic idempotency key the
 * engine derives from run, step and attempt) and waits for confirmed | rejected | failed.
 */
export const handoffNode: ActiveNodeBuilder<HandoffStep> = (step, build, exits, stage) => {
  // An answer naming an attempt must answer the current one: a late answer to an earlier
  // attempt of a retried handoff must not complete the retry.
  const isOutcome =
    (outcome: Outcome['outcome']): Guard =>
    ({ context, event }) =>
      event.type === 'handoff.outcome' &&
      event.step === step.id &&
      event.outcome === outcome &&
      (event.attempt === undefined || event.attempt === (context.attempts[step.id] ?? 0));
  const keep = update(({ context, event }) => {
    const outcome = event as Outcome;
    return {
      handoffs: {
        ...context.handoffs,
        [step.id]: {
          outcome: outcome.outcome,
          reference: outcome.reference,
          data: outcome.data ?? {},
          at: outcome.at,
          ...answeredBy(outcome),
        },
      },
    };
  });
  const outcomeFact = (type: string) =>
    fact(({ event }) => {
      const outcome = event as Outcome;
      return {
        type,
        stage,
        step: step.id,
        data: {
          party: step.party,
          reference: outcome.reference,
          data: outcome.data ?? {},
          // Who answered, when the host said (absent for simulated partners).
          ...answeredBy(outcome),
        },
      };
    });
  const registerCompensation =
    step.compensate === undefined
      ? []
      : [
          update(({ context }) => ({
            compensation_stack: [...context.compensation_stack, step.compensate!],
          })),
        ];
  return {
    // The fact comes first: it reads the same context the gate checked, so the request
    // evaluation is reused instead of repeated.
    entry: [
      fact(({ context }) => {
        const request = build.evaluator.fields(step.request ?? {}, context);
        return {
          type: 'handoff.requested',
          stage,
          step: step.id,
          data: {
            party: step.party,
            action: step.action,
            attempt: (context.attempts[step.id] ?? 0) + 1,
            timeout: step.timeout,
            compensation: stage === null,
            request: (request.ok ? request.value : {}) as JsonObject,
          },
        };
      }),
      update(({ context }) => ({
        attempts: { ...context.attempts, [step.id]: (context.attempts[step.id] ?? 0) + 1 },
      })),
    ],
    on: {
      'handoff.outcome': [
        ...withGuard(
          exits.success([keep, ...registerCompensation, outcomeFact('handoff.confirmed')]),
          isOutcome('confirmed'),
        ),
        ...withGuard(
          exits.failure(step.on_reject, { step: step.id, reason: 'handoff_rejected' }, [
            keep,
            outcomeFact('handoff.rejected'),
          ]),
          isOutcome('rejected'),
        ),
        ...withGuard(
          exits.failure(step.on_fail, { step: step.id, reason: 'handoff_failed' }, [
            keep,
            outcomeFact('handoff.failed'),
          ]),
          isOutcome('failed'),
        ),
      ],
      'timer.fired': withGuard(
        exits.failure(step.on_timeout, { step: step.id, reason: 'handoff_timed_out' }, [
          fact(() => ({
            type: 'handoff.timed_out',
            stage,
            step: step.id,
            data: { party: step.party, timeout: step.timeout },
          })),
        ]),
        isTimerFor(step.id),
      ),
    },
  };
};

/** A durable timer: the engine schedules it from `wait.started` and fires it later. */
export const waitNode: ActiveNodeBuilder<WaitStep> = (step, _build, exits, stage) => ({
  entry: [
    beginAttempt(step.id),
    fact(({ context }) => ({
      type: 'wait.started',
      stage,
      step: step.id,
      data: { duration: step.duration, attempt: context.attempts[step.id] ?? 1 },
    })),
  ],
  on: {
    'timer.fired': withGuard(
      exits.success([fact(() => ({ type: 'wait.completed', stage, step: step.id, data: {} }))]),
      isTimerFor(step.id),
    ),
    'run.cancel': cancelTransitions(stage, step.id),
  },
});
