import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../src/errors/error-catalogue.js';
import { openApiPath, TAGS } from '../src/openapi/operation-spec.js';
import { buildOpenApiDocument, ROUTES } from '../src/routes/all-routes.js';

const handlerRoutes = () => ROUTES;

const document = buildOpenApiDocument();
type Operation = {
  operationId: string;
  tags: string[];
  security?: unknown[];
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
};
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${path}`,
    operation,
  })),
);

describe('the OpenAPI document', () => {
  it('documents every route of the handler, and nothing else', () => {
    const routes = handlerRoutes().map((route) => `${route.method} ${openApiPath(route.path)}`);
    expect(operations.map((entry) => entry.key).sort()).toEqual(routes.sort());
  });

  it('marks exactly the public routes as needing no credentials', () => {
    const publicRoutes = handlerRoutes()
      .filter((route) => route.public)
      .map((route) => `${route.method} ${openApiPath(route.path)}`);
    const publicOperations = operations
      .filter((entry) => entry.operation.security?.length === 0)
      .map((entry) => entry.key);
    expect(publicOperations.sort()).toEqual(publicRoutes.sort());
  });

  it('documents every error code of the catalogue on some operation', () => {
    const text = JSON.stringify(document.paths) + JSON.stringify(document.components?.responses);
    const outside = [
      // Answered outside any operation: described in info.description.
      'route_not_found',
      'method_not_allowed',
      // The engine's own check; over HTTP the body schema refuses blank fields first.
      'invalid_access_request',
      // Raised by the accounts module and issuer activations, which have no HTTP endpoint
      // (the catalogue holds them so that no engine code can become a 500).
      'invalid_account',
      'invalid_api_key_request',
      'api_key_not_found',
      'scenario_not_restricted',
      'activation_not_found',
      'invalid_activation',
      // engine.upgradeRuns (`programrun upgrade apply`), which has no HTTP endpoint.
      'upgrade_not_proven',
      'invalid_upgrade_request',
    ];
    const missing = Object.keys(ERROR_CATALOGUE).filter(
      (code) => !outside.includes(code) && !text.includes(`"${code}"`),
    );
    expect(missing, 'add these codes to a route in src/routes/').toEqual([]);
  });

  it('lists the catalogue in the Problem schema', () => {
    const problem = document.components?.schemas?.Problem as {
      properties: { code: { enum: string[] } };
    };
    expect(problem.properties.code.enum).toEqual(Object.keys(ERROR_CATALOGUE));
  });

  it('has unique operationIds and only known tags', () => {
    const ids = operations.map((entry) => entry.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { operation } of operations) {
      expect(Object.keys(TAGS)).toEqual(expect.arrayContaining(operation.tags));
    }
  });

  it('is OpenAPI 3.1 with the JSON Schema 2020-12 dialect', () => {
    expect(document).toMatchObject({
      openapi: '3.1.0',
      jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    });
  });
});
