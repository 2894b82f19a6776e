import type { JsonObject } from '@programrun/evidence';
import { HttpError } from '../errors/http-error.js';
import type { OperationSpec } from '../openapi/operation-spec.js';
import type { Route, RouteContext } from '../router.js';
import { handleResume, type Resuming } from './handle-resume.js';
import { handleWork, type Working } from './handle-work.js';
import { parseRouteInput, readRouteJson, type RouteInput } from './route-input.js';

/** A read (or a delete without an Idempotency-Key): answered without a unit of work. */
export interface Answering<S extends OperationSpec> {
  readonly answer: (input: RouteInput<S>, context: RouteContext) => Promise<Response>;
}

function assertTestKey(context: RouteContext): void {
  if (context.principal.environment !== 'test') {
    throw new HttpError(
      'test_mode_only',
      'The test clock exists only in the test environment; use a pr_test_ key.',
    );
  }
}

/**
 * One endpoint from one source: its spec (method, path, the zod schemas of its path
 * parameters, query and body, its responses and error codes), which the OpenAPI document
 * is generated from, and how it is handled with what those schemas parsed: a read
 * `answer`s; a write does its `work` in one unit of work with the Idempotency-Key check
 * and the stored answer in the same transaction ({@link Working}); an action that spans
 * transactions records its `plan` with the key first ({@link Resuming}).
 *
 * @example
 * ```ts
 * const getRun = defineRoute(
 *   { method: 'GET', path: '/v1/program-runs/:id', operationId: 'getProgramRun', tag: 'Program runs',
 *     summary: 'Read a run', description: '…', params: z.object({ id: runIdParameter }),
 *     responses: [{ status: 200, description: 'The run.', schema: programRunSchema }], errors: ['run_not_found'] },
 *   { answer: async ({ params }, { engine, principal }) => jsonResponse(200, await engine.getRun(principal, params.id)) },
 * );
 * ```
 */
export function defineRoute<
  const S extends OperationSpec,
  P = RouteInput<S>,
  Plan extends JsonObject = JsonObject,
>(spec: S, how: Answering<S> | Working<S, P> | Resuming<S, Plan>): Route {
  return {
    ...spec,
    handle: async (context) => {
      if (spec.testOnly) assertTestKey(context);
      if ('work' in how) return handleWork(spec, how, context);
      if ('plan' in how) return handleResume(spec, how, context);
      return how.answer(
        parseRouteInput(spec, context, await readRouteJson(spec, context)),
        context,
      );
    },
  };
}
