import { rememberResponseText } from './body-cache.js';

/**
 * A JSON response (its text is remembered so adapters need not read it back).
 */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  const text = JSON.stringify(body);
  return rememberResponseText(
    new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } }),
    text,
  );
}
