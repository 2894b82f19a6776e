import { jsonResponse } from '../json-response.js';
import { partnerStatusListSchema } from '../schemas/partner-status.js';
import type { Route } from '../router.js';
import { defineRoute } from './define-route.js';

const listPartners = defineRoute(
  {
    method: 'GET',
    path: '/v1/partners',
    operationId: 'listPartners',
    scope: 'runs:read',
    tag: 'Partners',
    summary: 'List partners',
    description:
      'Every party handoffs go to through a connector in the key’s environment, by party id: its limits (`concurrency`, `rate`, `max_per_account`) and circuit breaker, which every account shares, and the key’s own account’s jobs (in flight, queued, accepted, exhausted, next call). Parties without a connector wait for answers posted to `POST /v1/program-runs/{id}/handoffs/{step}` and are not listed.',
    responses: [
      { status: 200, description: 'The parties, in one page.', schema: partnerStatusListSchema },
    ],
    errors: [],
  },
  {
    answer: async (_input, { engine, principal }) =>
      jsonResponse(200, {
        object: 'list',
        url: '/v1/partners',
        data: await engine.partners(principal),
        has_more: false,
      }),
  },
);

/** `/v1/partners`: the parties with a connector, their limits, breakers and the account's jobs. */
export const partnerRoutes: readonly Route[] = [listPartners];
