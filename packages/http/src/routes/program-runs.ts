import type { RunStatus } from '@programrun/engine';
import { HttpError } from '../errors/http-error.js';
import { jsonResponse } from '../json-response.js';
import { createRunBodySchema, parseBody } from '../request-schemas.js';
import type { Route } from '../router.js';
import { postRoute } from './post-route.js';
import { invalidQuery, pageLimit } from './list-query.js';

const RUN_STATUSES = new Set([
  'pending',
  'running',
  'waiting',
  'suspended',
  'completed',
  'faulted',
  'cancelled',
]);

/** RFC 3339 date-time (the ISO 8601 profile JSON Schema's `date-time` means). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function eventsQuery(url: URL): { afterSequence: number; limit: number } {
  const afterText = url.searchParams.get('after_sequence');
  const limitText = url.searchParams.get('limit');
  const afterSequence = afterText === null ? 0 : Number(afterText);
  const limit = limitText === null ? 100 : Number(limitText);
  const errors = [];
  if (!Number.isInteger(afterSequence) || afterSequence < 0 || afterText === '')
    errors.push({
      pointer: '/after_sequence',
      code: 'invalid_query',
      message: 'must be a non-negative integer',
    });
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000 || limitText === '')
    errors.push({
      pointer: '/limit',
      code: 'invalid_query',
      message: 'must be an integer from 1 to 1000',
    });
  if (errors.length > 0) {
    throw new HttpError(
      'invalid_query',
      errors.map((error) => `${error.pointer.slice(1)} ${error.message}`).join('; ') + '.',
      { errors },
    );
  }
  return { afterSequence, limit };
}

function listQuery(url: URL) {
  const params = url.searchParams;
  const limit = pageLimit(params);
  const status = params.get('status');
  if (status !== null && !RUN_STATUSES.has(status))
    throw invalidQuery('status', `must be one of ${[...RUN_STATUSES].join(', ')}`);
  const time = (name: string): string | undefined => {
    const value = params.get(name);
    if (value === null) return undefined;
    const parsed = new Date(value);
    if (!ISO_DATE_TIME.test(value) || Number.isNaN(parsed.getTime()))
      throw invalidQuery(
        name,
        'must be an ISO 8601 date-time with a time zone, e.g. 2026-03-02T09:00:00Z',
      );
    return parsed.toISOString();
  };
  const scenario = params.get('scenario_id');
  const after = params.get('starting_after');
  const gte = time('created[gte]');
  const lt = time('created[lt]');
  return {
    limit,
    ...(status === null ? {} : { status: status as RunStatus }),
    ...(scenario === null ? {} : { scenario_id: scenario }),
    ...(after === null ? {} : { starting_after: after }),
    ...(gte === undefined ? {} : { created_gte: gte }),
    ...(lt === undefined ? {} : { created_lt: lt }),
  };
}

/**
 * `POST /v1/program-runs`: the body and inputs are checked before the transaction; the
 * Idempotency-Key check, the creation and the stored answer share one store transaction,
 * so an acknowledged run always has its replayable answer.
 */
const createRun = postRoute(
  {
    keyRequired: true,
    parse: (body, { engine, principal, request }) =>
      engine.prepareRun(principal, {
        ...parseBody(createRunBodySchema, body),
        idempotency_key: request.headers.get('idempotency-key'),
      }),
  },
  async (uow, prepared) => {
    const { run, created } = await uow.createRun(prepared);
    return jsonResponse(created ? 201 : 200, run);
  },
);

/** `/v1/program-runs`: create, list, read, and a run's lifecycle records. */
export const programRunRoutes: readonly Route[] = [
  { method: 'POST', path: '/v1/program-runs', handle: createRun },
  {
    method: 'GET',
    path: '/v1/program-runs',
    handle: async ({ engine, principal, url }) => {
      const page = await engine.listRuns(principal, listQuery(url));
      return jsonResponse(200, { object: 'list', url: '/v1/program-runs', ...page });
    },
  },
  {
    method: 'GET',
    path: '/v1/program-runs/:id',
    handle: async ({ engine, principal, params }) =>
      jsonResponse(200, await engine.getRun(principal, params.id!)),
  },
  {
    method: 'GET',
    path: '/v1/program-runs/:id/events',
    handle: async ({ engine, principal, params, url }) => {
      const { afterSequence, limit } = eventsQuery(url);
      const records = await engine.listEvents(principal, params.id!, {
        afterSequence,
        limit: limit + 1,
      });
      return jsonResponse(200, {
        object: 'list',
        url: `/v1/program-runs/${params.id!}/events`,
        data: records.slice(0, limit),
        has_more: records.length > limit,
      });
    },
  },
];
