// What was thrown behind each 5xx problem response, kept beside the response (not in it)
// so the handler can log it with the request id wherever the response was built.
const failures = new WeakMap<Response, { readonly error: unknown; readonly code: string }>();

/** Remembers the error and problem code behind a response. */
export function rememberFailure(response: Response, error: unknown, code: string): Response {
  failures.set(response, { error, code });
  return response;
}

/** The error and problem code behind a response, if it was built from one. */
export function failureOf(
  response: Response,
): { readonly error: unknown; readonly code: string } | undefined {
  return failures.get(response);
}
