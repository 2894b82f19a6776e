import { z } from 'zod';
import type { ErrorCode } from '../../errors/error-catalogue.js';
import { approvalBodySchema, cancelBodySchema, handoffBodySchema } from '../../request-schemas.js';
import { programRunSchema } from '../../schemas/program-run.js';
import type { OperationSpec, SuccessResponse } from '../operation-spec.js';
import { runIdParameter, stepParameter } from '../parameters.js';

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

/**
 * The operations of routes/signals.ts.
 *
 * @example
 * ```ts
 * signalOperations.every((operation) => operation.idempotencyKey === 'optional'); // true
 * ```
 */
export const signalOperations: readonly OperationSpec[] = [
  {
    method: 'POST',
    path: '/v1/program-runs/:id/approvals',
    operationId: 'decideApproval',
    tag: 'Signals',
    summary: 'Decide an approval',
    description:
      'Records an approver’s decision on the approval (or policy review) the run waits for. The same approver repeating the same decision answers 200 with the run unchanged.',
    idempotencyKey: 'optional',
    parameters: { path: runPath },
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
    method: 'POST',
    path: '/v1/program-runs/:id/handoffs/:step',
    operationId: 'answerHandoff',
    tag: 'Signals',
    summary: 'Answer a handoff (partner callback)',
    description:
      'The appointed party reports the outcome of the step it executed. Repeating the same outcome and reference answers 200 with the run unchanged, so partners may retry callbacks.',
    idempotencyKey: 'optional',
    parameters: { path: z.object({ id: runIdParameter, step: stepParameter }) },
    body: { schema: handoffBodySchema, required: true },
    responses: [signalled],
    errors: [...refusals, 'run_suspended', 'step_not_awaiting', 'handoff_key_mismatch'],
  },
  {
    method: 'POST',
    path: '/v1/program-runs/:id/cancel',
    operationId: 'cancelProgramRun',
    tag: 'Signals',
    summary: 'Cancel a run',
    description:
      'Cancels a waiting or suspended run. Refused while a partner executes a handoff (cancel once it answers). The body may be empty.',
    idempotencyKey: 'optional',
    parameters: { path: runPath },
    body: { schema: cancelBodySchema, required: false },
    responses: [signalled],
    errors: [...refusals, 'cancel_not_allowed'],
  },
];
