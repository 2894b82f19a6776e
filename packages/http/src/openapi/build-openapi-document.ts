import { createDocument, type oas31, type ZodOpenApiPathsObject } from 'zod-openapi';
import { problemSchema } from '../schemas/problem.js';
import { openApiPath, TAGS, type OperationSpec } from './operation-spec.js';
import type { SharedResponses } from './problem-responses.js';
import { toOperation } from './to-operation.js';

/** An OpenAPI 3.1 document (zod-openapi's type lacks 3.1's `jsonSchemaDialect`). */
export type OpenApiDocument = oas31.OpenAPIObject & { jsonSchemaDialect?: string };

const DESCRIPTION = `An embeddable engine for money-movement workflows: create program runs from versioned scenarios, signal them (approvals, partner answers, cancellation), read their hash-chained lifecycle records and export signed evidence.

Authenticate with \`Authorization: Bearer <key>\`: \`pr_test_…\` keys see the test environment, \`pr_live_…\` keys the live one, and every object is scoped to the key's account and environment (anything else is 404). Request bodies are JSON objects (\`Content-Type: application/json\`, 64 KiB by default); unknown fields are refused. Every response carries \`Request-Id\`. Errors are RFC 9457 \`application/problem+json\` documents with a stable \`code\` (see the error catalogue). Besides what each operation lists, any path outside this document answers \`404 route_not_found\`, and a documented path with another method answers \`405 method_not_allowed\` with an \`Allow\` header.

Response objects are closed (\`additionalProperties: false\`): they list exactly what this version sends. Later versions may add fields, so clients should ignore fields they do not know.`;

/**
 * The OpenAPI 3.1 document of a set of operations (the routes' specs): paths from their
 * zod schemas, problem responses from the error catalogue at call time.
 */
export function openApiDocumentOf(operations: readonly OperationSpec[]): OpenApiDocument {
  const shared: SharedResponses = new Map();
  const paths: ZodOpenApiPathsObject = {};
  for (const spec of operations) {
    const path = openApiPath(spec.path);
    paths[path] = {
      ...paths[path],
      [spec.method.toLowerCase()]: toOperation(spec, shared),
    };
  }
  const { openapi, ...document } = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'programrun API',
        version: 'v1',
        description: DESCRIPTION,
        license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
      },
      servers: [
        {
          url: '/',
          description: 'The host serving this document; the paths include the /v1 prefix.',
        },
      ],
      security: [{ ApiKey: [] }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      paths,
      components: {
        schemas: { Problem: problemSchema },
        securitySchemes: {
          ApiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'pr_test_… or pr_live_… API key',
            description:
              'An API key: `pr_test_…` for the test environment, `pr_live_…` for the live one (32 base62 characters and a 6-character checksum after the prefix). A host with its own authentication may accept other bearer tokens.',
          },
        },
      },
    },
    { override: ({ jsonSchema }) => tidy(jsonSchema) },
  );
  // Every schema here is plain JSON Schema 2020-12 (no OpenAPI-only keywords).
  return {
    openapi,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    ...document,
  };
}

/**
 * Drops what zod writes that says nothing to a reader of the API: the RFC 3339 regex
 * beside `format: date-time`, JavaScript's safe-integer bounds, and the empty
 * `properties` and `additionalProperties: {}` of an open object.
 */
function tidy(jsonSchema: Record<string, unknown>): void {
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  const properties = jsonSchema.properties;
  const additional = jsonSchema.additionalProperties;
  if (
    jsonSchema.type === 'object' &&
    typeof properties === 'object' &&
    properties !== null &&
    Object.keys(properties).length === 0 &&
    typeof additional === 'object' &&
    additional !== null &&
    Object.keys(additional).length === 0
  ) {
    delete jsonSchema.properties;
    delete jsonSchema.additionalProperties;
  }
}
