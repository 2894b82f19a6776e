import { rememberResponseText } from '../body-cache.js';
import { buildOpenApiDocument } from '../openapi/build-openapi-document.js';
import { OPENAPI_MEDIA_TYPE } from '../openapi/operations/openapi.js';
import type { Route } from '../router.js';

let serialized: string | undefined;

/**
 * `GET /v1/openapi.json`: the OpenAPI 3.1 document, built and serialized once.
 *
 * @example
 * ```ts
 * const ROUTES = [...programRunRoutes, ...openApiRoutes];
 * ```
 */
export const openApiRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/v1/openapi.json',
    // Describes the API, not an account: anyone may read it, like the evidence keys.
    public: true,
    handle: () => {
      serialized ??= JSON.stringify(buildOpenApiDocument());
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
];
