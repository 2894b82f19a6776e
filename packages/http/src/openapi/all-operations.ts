import { eventOperations } from './operations/events.js';
import { evidenceOperations } from './operations/evidence.js';
import { openApiOperations } from './operations/openapi.js';
import { programRunOperations } from './operations/program-runs.js';
import { scenarioOperations } from './operations/scenarios.js';
import { signalOperations } from './operations/signals.js';
import { testHelperOperations } from './operations/test-helpers.js';
import { webhookEndpointOperations } from './operations/webhook-endpoints.js';
import type { OperationSpec } from './operation-spec.js';

/**
 * Every `/v1` operation, in the order of the handler's routes.
 *
 * @example
 * ```ts
 * ALL_OPERATIONS.filter((operation) => operation.public).length; // 2
 * ```
 */
export const ALL_OPERATIONS: readonly OperationSpec[] = [
  ...programRunOperations,
  ...signalOperations,
  ...evidenceOperations,
  ...scenarioOperations,
  ...webhookEndpointOperations,
  ...eventOperations,
  ...testHelperOperations,
  ...openApiOperations,
];
