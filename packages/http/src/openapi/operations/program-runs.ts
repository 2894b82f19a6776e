import { z } from 'zod';
import { createRunBodySchema } from '../../request-schemas.js';
import { lifecycleRecordListSchema } from '../../schemas/lifecycle-record.js';
import { programRunListSchema, programRunSchema } from '../../schemas/program-run.js';
import type { OperationSpec } from '../operation-spec.js';
import { listEventsQuery, listRunsQuery, runIdParameter } from '../parameters.js';

const runPath = z.object({ id: runIdParameter });

/**
 * The operations of routes/program-runs.ts.
 *
 * @example
 * ```ts
 * programRunOperations.map((operation) => operation.operationId); // ['createProgramRun', …]
 * ```
 */
export const programRunOperations: readonly OperationSpec[] = [
  {
    method: 'POST',
    path: '/v1/program-runs',
    operationId: 'createProgramRun',
    tag: 'Program runs',
    summary: 'Create a run',
    description:
      'Validates the inputs against the scenario, starts the run and answers it as it rests: usually `waiting` for its first handoff or approval. Creation is exactly-once per Idempotency-Key.',
    idempotencyKey: 'required',
    body: { schema: createRunBodySchema, required: true },
    responses: [
      { status: 201, description: 'The new run.', schema: programRunSchema },
      {
        status: 200,
        description:
          'The run this Idempotency-Key created earlier, when its stored response has expired.',
        schema: programRunSchema,
      },
    ],
    errors: ['scenario_not_found', 'invalid_inputs', 'track_not_available', 'concurrent_update'],
  },
  {
    method: 'GET',
    path: '/v1/program-runs',
    operationId: 'listProgramRuns',
    tag: 'Program runs',
    summary: 'List runs',
    description: 'Runs of the key’s account and environment, newest first, in pages.',
    parameters: { query: listRunsQuery },
    responses: [{ status: 200, description: 'A page of runs.', schema: programRunListSchema }],
    errors: ['invalid_query'],
  },
  {
    method: 'GET',
    path: '/v1/program-runs/:id',
    operationId: 'getProgramRun',
    tag: 'Program runs',
    summary: 'Read a run',
    description: 'Runs of other accounts and environments answer 404.',
    parameters: { path: runPath },
    responses: [{ status: 200, description: 'The run.', schema: programRunSchema }],
    errors: ['run_not_found'],
  },
  {
    method: 'GET',
    path: '/v1/program-runs/:id/events',
    operationId: 'listProgramRunEvents',
    tag: 'Program runs',
    summary: 'List the lifecycle records of a run',
    description:
      'The hash-chained lifecycle records of a run in sequence order; verify them against `evidence.chain_head`.',
    parameters: { path: runPath, query: listEventsQuery },
    responses: [
      { status: 200, description: 'A page of records.', schema: lifecycleRecordListSchema },
    ],
    errors: ['invalid_query', 'run_not_found'],
  },
];
