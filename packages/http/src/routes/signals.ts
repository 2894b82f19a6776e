import type { Signal } from '@programrun/engine';
import type { JsonObject } from '@programrun/evidence';
import { jsonResponse } from '../json-response.js';
import {
  approvalBodySchema,
  cancelBodySchema,
  handoffBodySchema,
  parseBody,
} from '../request-schemas.js';
import type { Route, RouteContext } from '../router.js';
import { postRoute } from './post-route.js';

/**
 * Checks the body, honours an optional Idempotency-Key, and applies the signal in one
 * unit of work. A duplicate of what is already recorded answers 200 with the run
 * unchanged, so partners may retry callbacks freely.
 */
function signalRoute(
  toSignal: (body: Record<string, unknown>, context: RouteContext) => Signal,
  allowEmpty = false,
) {
  return postRoute(
    {
      keyRequired: false,
      allowEmpty,
      parse: (body, context) => toSignal(body as Record<string, unknown>, context),
    },
    async (uow, signal, { params }) => {
      const { run } = await uow.signal(params.id!, signal);
      return jsonResponse(200, run);
    },
  );
}

/** Approvals, partner callbacks and cancellation of a run. */
export const signalRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/program-runs/:id/approvals',
    handle: signalRoute((body) => {
      const parsed = parseBody(approvalBodySchema, body);
      return { kind: 'approval', ...parsed };
    }),
  },
  {
    method: 'POST',
    path: '/v1/program-runs/:id/handoffs/:step',
    handle: signalRoute((body, context) => {
      const parsed = parseBody(handoffBodySchema, body);
      return {
        kind: 'handoff',
        step: context.params.step!,
        outcome: parsed.outcome,
        reference: parsed.reference,
        data: (parsed.data ?? {}) as JsonObject,
        idempotency_key: parsed.idempotency_key,
      };
    }),
  },
  {
    method: 'POST',
    path: '/v1/program-runs/:id/cancel',
    handle: signalRoute(
      (body) => ({ kind: 'cancel', reason: parseBody(cancelBodySchema, body).reason }),
      true,
    ),
  },
];
