import type { Route } from '../router.js';
import { eventRoutes } from './events.js';
import { evidenceRoutes } from './evidence.js';
import { openApiRoutes } from './openapi.js';
import { programRunRoutes } from './program-runs.js';
import { scenarioRoutes } from './scenarios.js';
import { signalRoutes } from './signals.js';
import { testHelperRoutes } from './test-helpers.js';
import { webhookEndpointRoutes } from './webhook-endpoints.js';

/**
 * Every `/v1` endpoint the handler serves, in matching order. The OpenAPI document must
 * describe exactly these (a test checks both ways).
 *
 * @example
 * ```ts
 * ROUTES.map((route) => `${route.method} ${route.path}`); // ['POST /v1/program-runs', …]
 * ```
 */
export const ROUTES: readonly Route[] = [
  ...programRunRoutes,
  ...signalRoutes,
  ...evidenceRoutes,
  ...scenarioRoutes,
  ...webhookEndpointRoutes,
  ...eventRoutes,
  ...testHelperRoutes,
  ...openApiRoutes,
];
