import { z } from 'zod';
import { jsonResponse } from '../json-response.js';
import { createRunBodySchema } from '../request-schemas.js';
import { lifecycleRecordListSchema } from '../schemas/lifecycle-record.js';
import { programRunListSchema, programRunSchema } from '../schemas/program-run.js';
import type { Route } from '../router.js';
import { defineRoute } from './define-route.js';
import { presentOnly } from './present-only.js';
import { listEventsQuery, listRunsQuery, runIdParameter } from './parameters.js';

const runPath = z.object({ id: runIdParameter });

/**
 * `POST /v1/program-runs`: the body and inputs are checked before the transaction; the
 * Idempotency-Key check, the creation and the stored answer share one store transaction,
 * so an acknowledged run always has its replayable answer.
 */
const createRun = defineRoute(
  {
    method: 'POST',
    path: '/v1/program-runs',
    operationId: 'createProgramRun',
    scope: 'runs:write',
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
    prepare: ({ body }, { engine, principal, request }) =>
      engine.prepareRun(principal, {
        ...body,
        idempotency_key: request.headers.get('idempotency-key'),
      }),
    work: async (uow, prepared) => {
      const { run, created } = await uow.createRun(prepared);
      return jsonResponse(created ? 201 : 200, run);
    },
  },
);

const listRuns = defineRoute(
  {
    method: 'GET',
    path: '/v1/program-runs',
    operationId: 'listProgramRuns',
    scope: 'runs:read',
    tag: 'Program runs',
    summary: 'List runs',
    description:
      'Runs of the key’s account and environment, newest first, in pages. Every filter given must hold: scenario, status, current stage, the kind of step awaited, the creation time, and `q` for the run a known id names.',
    query: listRunsQuery,
    responses: [{ status: 200, description: 'A page of runs.', schema: programRunListSchema }],
    errors: ['invalid_query'],
  },
  {
    answer: async ({ query }, { engine, principal }) => {
      const { 'created[gte]': gte, 'created[lt]': lt, ...filters } = query;
      const page = await engine.listRuns(
        principal,
        presentOnly({
          ...filters,
          created_gte: gte === undefined ? undefined : new Date(gte).toISOString(),
          created_lt: lt === undefined ? undefined : new Date(lt).toISOString(),
        }),
      );
      return jsonResponse(200, { object: 'list', url: '/v1/program-runs', ...page });
    },
  },
);

const getRun = defineRoute(
  {
    method: 'GET',
    path: '/v1/program-runs/:id',
    operationId: 'getProgramRun',
    scope: 'runs:read',
    tag: 'Program runs',
    summary: 'Read a run',
    description: 'Runs of other accounts and environments answer 404.',
    params: runPath,
    responses: [{ status: 200, description: 'The run.', schema: programRunSchema }],
    errors: ['run_not_found'],
  },
  {
    answer: async ({ params }, { engine, principal }) =>
      jsonResponse(200, await engine.getRun(principal, params.id)),
  },
);

const listRunEvents = defineRoute(
  {
    method: 'GET',
    path: '/v1/program-runs/:id/events',
    operationId: 'listProgramRunEvents',
    scope: 'runs:read',
    tag: 'Program runs',
    summary: 'List the lifecycle records of a run',
    description:
      'The hash-chained lifecycle records of a run in sequence order; verify them against `evidence.chain_head`.',
    params: runPath,
    query: listEventsQuery,
    responses: [
      { status: 200, description: 'A page of records.', schema: lifecycleRecordListSchema },
    ],
    errors: ['invalid_query', 'run_not_found'],
  },
  {
    answer: async ({ params, query }, { engine, principal }) => {
      const records = await engine.listEvents(principal, params.id, {
        afterSequence: query.after_sequence,
        limit: query.limit + 1,
      });
      return jsonResponse(200, {
        object: 'list',
        url: `/v1/program-runs/${params.id}/events`,
        data: records.slice(0, query.limit),
        has_more: records.length > query.limit,
      });
    },
  },
);

/** `/v1/program-runs`: create, list, read, and a run's lifecycle records. */
export const programRunRoutes: readonly Route[] = [createRun, listRuns, getRun, listRunEvents];
