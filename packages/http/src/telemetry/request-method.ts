// The HTTP methods the OpenTelemetry semantic conventions name; any other is `_OTHER`.
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'QUERY',
  'TRACE',
]);

/**
 * `http.request.method` as the conventions ask: a known method as sent, anything else
 * `_OTHER` (so a client inventing methods cannot make metrics grow without bound).
 */
export function requestMethodOf(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}
