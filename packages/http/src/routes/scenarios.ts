import { describeScenario } from '@programrun/engine';
import { z } from 'zod';
import { jsonResponse } from '../json-response.js';
import { scenarioListSchema, scenarioSchema } from '../schemas/scenario.js';
import type { Route } from '../router.js';
import { defineRoute } from './define-route.js';
import { scenarioIdParameter } from './parameters.js';

const listScenarios = defineRoute(
  {
    method: 'GET',
    path: '/v1/scenarios',
    operationId: 'listScenarios',
    scope: 'runs:read',
    tag: 'Scenarios',
    storeFree: true,
    summary: 'List scenarios',
    description: 'The whole catalogue, sorted by id, in one page.',
    responses: [{ status: 200, description: 'The catalogue.', schema: scenarioListSchema }],
    errors: [],
  },
  {
    answer: (_input, { engine }) =>
      Promise.resolve(
        jsonResponse(200, {
          object: 'list',
          url: '/v1/scenarios',
          data: engine.scenarios.list().map(describeScenario),
          has_more: false,
        }),
      ),
  },
);

const getScenario = defineRoute(
  {
    method: 'GET',
    path: '/v1/scenarios/:id',
    operationId: 'getScenario',
    scope: 'runs:read',
    tag: 'Scenarios',
    storeFree: true,
    summary: 'Read a scenario',
    description:
      'A scenario with its input JSON Schema, example inputs, parties, stages, policy, controls and invariants.',
    params: z.object({ id: scenarioIdParameter }),
    responses: [{ status: 200, description: 'The scenario.', schema: scenarioSchema }],
    errors: ['scenario_not_found'],
  },
  {
    answer: ({ params }, { engine }) =>
      Promise.resolve(jsonResponse(200, describeScenario(engine.scenarios.get(params.id)))),
  },
);

/** The scenario catalogue. */
export const scenarioRoutes: readonly Route[] = [listScenarios, getScenario];
