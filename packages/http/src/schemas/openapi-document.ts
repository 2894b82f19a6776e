import { z } from 'zod';

/**
 * The outline of the OpenAPI document `GET /v1/openapi.json` serves.
 *
 * @example
 * ```ts
 * openApiDocumentSchema.parse(await (await fetch(`${base}/v1/openapi.json`)).json()).openapi; // '3.1.0'
 * ```
 */
export const openApiDocumentSchema = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.looseObject({}),
  })
  .meta({ id: 'OpenApiDocument', description: 'This OpenAPI 3.1 document.' });
