import { openApiDocumentOf, type OpenApiDocument } from '../openapi/build-openapi-document.js';
import type { Route } from '../router.js';
import { eventRoutes } from './events.js';
import { evidenceRoutes } from './evidence.js';
import { healthRoutes } from './health.js';
import { openApiRoute } from './openapi.js';
import { partnerRoutes } from './partners.js';
import { principalRoutes } from './principal.js';
import { programRunRoutes } from './program-runs.js';
import { runStreamRoutes } from './run-stream.js';
import { scenarioDiagramRoutes } from './scenario-diagram.js';
import { scenarioRoutes } from './scenarios.js';
import { signalRoutes } from './signals.js';
import { testHelperRoutes } from './test-helpers.js';
import { webhookEndpointRoutes } from './webhook-endpoints.js';

/**
 * Every endpoint the handler serves (`/v1`, and the `/healthz` and `/readyz` probes), in
 * matching order; the OpenAPI document is generated from them.
 */
export const ROUTES: readonly Route[] = [
  ...programRunRoutes,
  ...runStreamRoutes,
  ...signalRoutes,
  ...evidenceRoutes,
  ...scenarioRoutes,
  ...scenarioDiagramRoutes,
  ...webhookEndpointRoutes,
  ...eventRoutes,
  ...partnerRoutes,
  ...testHelperRoutes,
  ...principalRoutes,
  openApiRoute(() => buildOpenApiDocument()),
  ...healthRoutes,
];

/**
 * The OpenAPI 3.1 document of the `/v1` surface, generated from the routes: their zod
 * schemas for parameters, bodies and responses, and their error codes (described from
 * the error catalogue).
 *
 * @example
 * ```ts
 * const document = buildOpenApiDocument();
 * document.paths?.['/v1/program-runs']?.post?.operationId; // 'createProgramRun'
 * ```
 */
export function buildOpenApiDocument(): OpenApiDocument {
  return openApiDocumentOf(ROUTES);
}
