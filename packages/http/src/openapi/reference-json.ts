import { buildOpenApiDocument } from '../routes/all-routes.js';

/**
 * `docs/reference/openapi.json` as committed: the document, two-space indented, with a
 * final newline.
 *
 * @example
 * ```ts
 * await writeFile('docs/reference/openapi.json', openApiReferenceJson());
 * ```
 */
export function openApiReferenceJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
