import { z } from 'zod';
import { scenarioListSchema, scenarioSchema } from '../../schemas/scenario.js';
import type { OperationSpec } from '../operation-spec.js';
import { scenarioIdParameter } from '../parameters.js';

/**
 * The operations of routes/scenarios.ts.
 *
 * @example
 * ```ts
 * scenarioOperations.map((operation) => operation.operationId); // ['listScenarios', 'getScenario']
 * ```
 */
export const scenarioOperations: readonly OperationSpec[] = [
  {
    method: 'GET',
    path: '/v1/scenarios',
    operationId: 'listScenarios',
    tag: 'Scenarios',
    summary: 'List scenarios',
    description: 'The whole catalogue, sorted by id, in one page.',
    responses: [{ status: 200, description: 'The catalogue.', schema: scenarioListSchema }],
    errors: [],
  },
  {
    method: 'GET',
    path: '/v1/scenarios/:id',
    operationId: 'getScenario',
    tag: 'Scenarios',
    summary: 'Read a scenario',
    description:
      'A scenario with its input JSON Schema, example inputs, parties, stages, policy, controls and invariants.',
    parameters: { path: z.object({ id: scenarioIdParameter }) },
    responses: [{ status: 200, description: 'The scenario.', schema: scenarioSchema }],
    errors: ['scenario_not_found'],
  },
];
