import { z } from 'zod';
import { openApiDocumentSchema } from '../../schemas/openapi-document.js';
import type { OperationSpec } from '../operation-spec.js';

/**
 * The media type `GET /v1/openapi.json` answers with (the IANA-registered OpenAPI type).
 *
 * @example
 * ```ts
 * response.headers.get('content-type') === OPENAPI_MEDIA_TYPE; // true
 * ```
 */
export const OPENAPI_MEDIA_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

/**
 * The operation of routes/openapi.ts.
 *
 * @example
 * ```ts
 * openApiOperations[0]!.public; // true
 * ```
 */
export const openApiOperations: readonly OperationSpec[] = [
  {
    method: 'GET',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'OpenAPI',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 description of the /v1 surface. Public.',
    public: true,
    responses: [
      {
        status: 200,
        description: 'The document.',
        schema: openApiDocumentSchema,
        contentType: OPENAPI_MEDIA_TYPE,
        headers: {
          'Cache-Control': z
            .literal('public, max-age=300')
            .meta({ description: 'Cacheable for 5 minutes.' }),
        },
      },
    ],
    errors: [],
  },
];
