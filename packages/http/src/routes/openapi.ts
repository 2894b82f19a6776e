import { z } from 'zod';
import { rememberResponseText } from '../body-cache.js';
import type { OpenApiDocument } from '../openapi/build-openapi-document.js';
import type { Route } from '../router.js';
import { openApiDocumentSchema } from '../schemas/openapi-document.js';
import { defineRoute } from './define-route.js';

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
 * `GET /v1/openapi.json`: the document of the routes it is served among, built and
 * serialized on its first request.
 */
export function openApiRoute(document: () => OpenApiDocument): Route {
  let serialized: string | undefined;
  return defineRoute(
    {
      method: 'GET',
      path: '/v1/openapi.json',
      operationId: 'getOpenApiDocument',
      tag: 'OpenAPI',
      summary: 'This OpenAPI document',
      description: 'The OpenAPI 3.1 description of the /v1 surface. Public.',
      // Describes the API, not an account: anyone may read it, like the evidence keys.
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
    {
      answer: () => {
        serialized ??= JSON.stringify(document());
        return Promise.resolve(
          rememberResponseText(
            new Response(serialized, {
              status: 200,
              headers: {
                'content-type': OPENAPI_MEDIA_TYPE,
                'cache-control': 'public, max-age=300',
              },
            }),
            serialized,
          ),
        );
      },
    },
  );
}
