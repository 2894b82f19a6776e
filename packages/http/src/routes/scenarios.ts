import { describeScenario } from '@programrun/engine';
import { jsonResponse } from '../json-response.js';
import type { Route } from '../router.js';

/** The scenario catalogue. */
export const scenarioRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/v1/scenarios',
    handle: ({ engine }) =>
      Promise.resolve(
        jsonResponse(200, {
          object: 'list',
          url: '/v1/scenarios',
          data: engine.scenarios.list().map(describeScenario),
          has_more: false,
        }),
      ),
  },
  {
    method: 'GET',
    path: '/v1/scenarios/:id',
    handle: ({ engine, params }) =>
      Promise.resolve(jsonResponse(200, describeScenario(engine.scenarios.get(params.id!)))),
  },
];
