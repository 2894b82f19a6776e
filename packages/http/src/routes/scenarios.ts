import { describeScenario } from '@programrun/engine';
import { z } from 'zod';
import { jsonResponse } from '../json-response.js';
import { scenarioListSchema, scenarioSchema } from '../schemas/scenario.js';
import { scenarioVersionUsageListSchema } from '../schemas/scenario-version-usage.js';
import type { Route } from '../router.js';
import { defineRoute } from './define-route.js';
import { scenarioIdParameter, scenarioNameOrIdParameter } from './parameters.js';

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

const listScenarioVersions = defineRoute(
  {
    method: 'GET',
    path: '/v1/scenarios/:id/versions',
    operationId: 'listScenarioVersions',
    scope: 'runs:read',
    tag: 'Scenarios',
    summary: 'List the versions of a scenario and their runs',
    description:
      'Every version of the scenario (a name such as `bank-payout`, or any of its ids) that the host loads or the key’s account has runs of, oldest first, with the account’s runs of each by status, how many are unfinished and whether it has drained: when an old version’s runs are all moved (`programrun upgrade apply`) or finished, it can go.',
    params: z.object({ id: scenarioNameOrIdParameter }),
    responses: [
      {
        status: 200,
        description: 'The versions, in one page.',
        schema: scenarioVersionUsageListSchema,
      },
    ],
    errors: ['scenario_not_found'],
  },
  {
    answer: async ({ params }, { engine, principal }) => {
      // A scenario id names its scenario: every version of the name is listed.
      const name = params.id.split('@')[0]!;
      return jsonResponse(200, {
        object: 'list',
        url: `/v1/scenarios/${name}/versions`,
        data: await engine.versionUsage(principal, name),
        has_more: false,
      });
    },
  },
);

/** The scenario catalogue, and the versions of a scenario with the account's runs of each. */
export const scenarioRoutes: readonly Route[] = [listScenarios, getScenario, listScenarioVersions];
