import type { Signal, UnitOfWork } from '@programrun/engine';
import type { JsonObject } from '@programrun/evidence';
import { z } from 'zod';
import type { ErrorCode } from '../errors/error-catalogue.js';
import { jsonResponse } from '../json-response.js';
import type { SuccessResponse } from '../openapi/operation-spec.js';
import { approvalBodySchema, cancelBodySchema, handoffBodySchema } from '../request-schemas.js';
import { programRunSchema } from '../schemas/program-run.js';
import type { Route } from '../router.js';
import { defineRoute } from './define-route.js';
import { runIdParameter, stepParameter } from './parameters.js';
import { authorizeAnswer, authorizeDecision } from './signal-authorization.js';

const runPath = z.object({ id: runIdParameter });
const signalled: SuccessResponse = {
  status: 200,
  description:
    'The run after the signal, or unchanged when the signal repeats what is already recorded.',
  schema: programRunSchema,
};
// What engine.signal can refuse with, whatever the signal.
const refusals: readonly ErrorCode[] = [
  'run_not_found',
  'run_finished',
  'signal_refused',
  'concurrent_update',
  'scenario_digest_mismatch',
];

/** A signal for a run, as a route prepared it from the request. */
interface RunSignal {
  readonly id: string;
  readonly signal: Signal;
}

/** A signal for one step of a run (a decision or a partner answer). */
interface StepSignal extends RunSignal {
  readonly step: string;
}

/**
 * Applies a signal in the route's unit of work. A duplicate of what is already recorded
 * answers 200 with the run unchanged, so partners may retry callbacks freely.
 */
const applySignal = async (uow: UnitOfWork, { id, signal }: RunSignal): Promise<Response> =>
  jsonResponse(200, (await uow.signal(id, signal)).run);

const decideApproval = defineRoute(
  {
    method: 'POST',
    path: '/v1/program-runs/:id/approvals',
    operationId: 'decideApproval',
    scope: 'approvals:decide',
    tag: 'Signals',
    summary: 'Decide an approval',
    description:
      'Records a decision on the approval (or policy review) the run waits for, by the authenticated actor of the credential: quorum and four eyes count distinct actors, and `approver` in the body is only a display label. The credential needs `approvals:decide` (or `approvals:decide:<party>` for one of the step’s approver parties, or whatever the host’s `authorizeApproval` allows). The same actor repeating the same decision answers 200 with the run unchanged.',
    idempotencyKey: 'optional',
    params: runPath,
    body: { schema: approvalBodySchema, required: true },
    responses: [signalled],
    errors: [
      ...refusals,
      'run_suspended',
      'step_not_awaiting',
      'approver_already_decided',
      'maker_checker_violation',
      'approver_not_authorized',
    ],
  },
  {
    prepare: ({ params, body }, { principal }): StepSignal => ({
      id: params.id,
      step: body.step,
      signal: {
        kind: 'approval',
        step: body.step,
        decision: body.decision,
        // Who decided is the authenticated actor; the body's name is a label only.
        approver: principal.actor,
        credential_id: principal.credentialId,
        label: body.approver,
        note: body.note,
      },
    }),
    work: async (uow, prepared, context) => {
      await authorizeDecision(uow, context, prepared.id, prepared.step);
      return applySignal(uow, prepared);
    },
  },
);

const answerHandoff = defineRoute(
  {
    method: 'POST',
    path: '/v1/program-runs/:id/handoffs/:step',
    operationId: 'answerHandoff',
    scope: 'handoffs:answer',
    tag: 'Signals',
    summary: 'Answer a handoff (partner callback)',
    description:
      'The appointed party reports the outcome of the step it executed. The credential needs `handoffs:answer` or `handoffs:answer:<party>` for the step’s party; in live the answer must carry the `idempotency_key` of the handoff request. The evidence names the answering actor and credential. Repeating the same outcome and reference answers 200 with the run unchanged, so partners may retry callbacks.',
    idempotencyKey: 'optional',
    params: z.object({ id: runIdParameter, step: stepParameter }),
    body: { schema: handoffBodySchema, required: true },
    responses: [signalled],
    errors: [
      ...refusals,
      'run_suspended',
      'step_not_awaiting',
      'handoff_key_mismatch',
      'handoff_key_required',
    ],
  },
  {
    prepare: ({ params, body }, { principal }): StepSignal => ({
      id: params.id,
      step: params.step,
      signal: {
        kind: 'handoff',
        step: params.step,
        outcome: body.outcome,
        reference: body.reference,
        data: (body.data ?? {}) as JsonObject,
        idempotency_key: body.idempotency_key,
        answered_by: { actor: principal.actor, credential_id: principal.credentialId },
      },
    }),
    work: async (uow, prepared, context) => {
      await authorizeAnswer(uow, context, prepared.id, prepared.step);
      return applySignal(uow, prepared);
    },
  },
);

const cancelRun = defineRoute(
  {
    method: 'POST',
    path: '/v1/program-runs/:id/cancel',
    operationId: 'cancelProgramRun',
    scope: 'runs:write',
    tag: 'Signals',
    summary: 'Cancel a run',
    description:
      'Cancels a waiting or suspended run. Refused while a partner executes a handoff (cancel once it answers). The body may be empty.',
    idempotencyKey: 'optional',
    params: runPath,
    body: { schema: cancelBodySchema, required: false },
    responses: [signalled],
    errors: [...refusals, 'cancel_not_allowed'],
  },
  {
    prepare: ({ params, body }): RunSignal => ({
      id: params.id,
      signal: { kind: 'cancel', reason: body.reason },
    }),
    work: applySignal,
  },
);

/** Approvals, partner callbacks and cancellation of a run. */
export const signalRoutes: readonly Route[] = [decideApproval, answerHandoff, cancelRun];
