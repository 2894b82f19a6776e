import type { Readiness } from '@programrun/engine';
import { z } from 'zod';
import { rememberResponseText } from '../body-cache.js';
import { HttpError } from '../errors/http-error.js';
import { toProblem } from '../errors/problem-response.js';
import { jsonResponse } from '../json-response.js';
import { rememberFailure } from '../logging/failures.js';
import type { Route } from '../router.js';
import { healthSchema, notReadyProblemSchema, readinessSchema } from '../schemas/health.js';
import { defineRoute } from './define-route.js';

const NO_STORE = { 'cache-control': 'no-store' } as const;
const noStoreHeader = {
  'Cache-Control': z
    .literal('no-store')
    .meta({ description: 'Never cached: probes read it live.' }),
};

/** What failed, for the problem's detail: `store unreachable, migrations behind`. */
function failuresOf({ checks }: Readiness): string {
  const failures: string[] = [];
  if (checks.store.status !== 'ok') failures.push(`store ${checks.store.status}`);
  if (checks.migrations.status !== 'current' && checks.migrations.status !== 'unknown')
    failures.push(`migrations ${checks.migrations.status}`);
  const stopped = Object.entries(checks.background.workers)
    .filter(([, status]) => status === 'stopped')
    .map(([name]) => name);
  if (stopped.length > 0) failures.push(`stopped: ${stopped.join(', ')}`);
  return failures.join('; ');
}

/** The `503 not_ready` answer: the problem document with the checks beside its fields. */
function notReady(readiness: Readiness, requestId: string): Response {
  const error = new HttpError('not_ready', `This host is not ready (${failuresOf(readiness)}).`);
  const text = JSON.stringify({ ...toProblem(error, requestId), checks: readiness.checks });
  const response = new Response(text, {
    status: 503,
    headers: { 'content-type': 'application/problem+json', ...NO_STORE },
  });
  return rememberFailure(rememberResponseText(response, text), error, 'not_ready');
}

const health = defineRoute(
  {
    method: 'GET',
    path: '/healthz',
    operationId: 'getHealth',
    tag: 'Health',
    summary: 'Liveness',
    description:
      'Answers while the process serves requests, without touching the store: a liveness probe (restart the process when it stops answering). Public, never rate-limited, outside `/v1`.',
    public: true,
    storeFree: true,
    responses: [
      {
        status: 200,
        description: 'The process is alive.',
        schema: healthSchema,
        headers: noStoreHeader,
      },
    ],
    errors: [],
  },
  { answer: () => Promise.resolve(jsonResponse(200, { status: 'ok' }, NO_STORE)) },
);

const readiness = defineRoute(
  {
    method: 'GET',
    path: '/readyz',
    operationId: 'getReadiness',
    tag: 'Health',
    summary: 'Readiness',
    description:
      'Whether this host can serve: the store answers (within 2 s), its migrations are current, and its background workers (scheduler, handoff workers, webhook dispatcher, those it started) run. A readiness probe: while it answers `503 not_ready`, send traffic to other hosts (it does during shutdown). Public, never rate-limited, outside `/v1`.',
    public: true,
    responses: [
      {
        status: 200,
        description: 'Ready; every check passed.',
        schema: readinessSchema,
        headers: noStoreHeader,
      },
    ],
    errors: ['not_ready'],
    problemSchemas: { not_ready: notReadyProblemSchema },
  },
  {
    answer: async (_input, { engine, requestId }) => {
      const answer = await engine.readiness();
      return answer.ready
        ? jsonResponse(200, { status: 'ready', checks: answer.checks }, NO_STORE)
        : notReady(answer, requestId);
    },
  },
);

/** `GET /healthz` and `GET /readyz`: liveness and readiness probes, public and unprefixed. */
export const healthRoutes: readonly Route[] = [health, readiness];
