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
    tag: 'Signals',
    summary: 'Decide an approval',
    description:
      'Records an approver’s decision on the approval (or policy review) the run waits for. The same approver repeating the same decision answers 200 with the run unchanged.',
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
    ],
  },
  {
    prepare: ({ params, body }): RunSignal => ({
      id: params.id,
      signal: { kind: 'approval', ...body },
    }),
    work: applySignal,
  },
);

const answerHandoff = defineRoute(
  {
    method: 'POST',
    path: '/v1/program-runs/:id/handoffs/:step',
    operationId: 'answerHandoff',
    tag: 'Signals',
    summary: 'Answer a handoff (partner callback)',
    description:
      'The appointed party reports the outcome of the step it executed. Repeating the same outcome and reference answers 200 with the run unchanged, so partners may retry callbacks.',
    idempotencyKey: 'optional',
    params: z.object({ id: runIdParameter, step: stepParameter }),
    body: { schema: handoffBodySchema, required: true },
    responses: [signalled],
    errors: [...refusals, 'run_suspended', 'step_not_awaiting', 'handoff_key_mismatch'],
  },
  {
    prepare: ({ params, body }): RunSignal => ({
      id: params.id,
      signal: {
        kind: 'handoff',
        step: params.step,
        outcome: body.outcome,
        reference: body.reference,
        data: (body.data ?? {}) as JsonObject,
        idempotency_key: body.idempotency_key,
      },
    }),
    work: applySignal,
  },
);

const cancelRun = defineRoute(
  {
    method: 'POST',
    path: '/v1/program-runs/:id/cancel',
    operationId: 'cancelProgramRun',
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
