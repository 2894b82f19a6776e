/**
 * A JSON response.
 *
 * @example
 * ```ts
 * return jsonResponse(201, run);
 * ```
 */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
