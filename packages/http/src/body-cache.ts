// Bodies the handler and the node adapter already hold as text or bytes, so a body is
// never streamed out of a Request or Response just to be buffered again. Only an
// optimisation: anything not found here is read the standard way.
const responseTexts = new WeakMap<Response, string>();
const requestBytes = new WeakMap<Request, Uint8Array>();
const oversized = new WeakSet<Request>();

/**
 * Marks a Request whose body the adapter stopped reading at the size limit: it must be
 * answered 413, never read as an empty body.
 */
export function markOversized(request: Request): Request {
  oversized.add(request);
  return request;
}

/**
 * True for a Request the adapter cut off at the size limit.
 */
export function isOversized(request: Request): boolean {
  return oversized.has(request);
}

/**
 * Remembers the text a Response was built from.
 */
export function rememberResponseText(response: Response, text: string): Response {
  responseTexts.set(response, text);
  return response;
}

/**
 * The text a Response was built from, if we built it; undefined otherwise.
 */
export function rememberedResponseText(response: Response): string | undefined {
  return responseTexts.get(response);
}

/**
 * The text of a Response: remembered if we built it, otherwise read (consuming the body).
 */
export async function responseText(response: Response): Promise<string> {
  return responseTexts.get(response) ?? (await response.text());
}

/**
 * Remembers the raw bytes a Request was built from (the node adapter reads them first).
 */
export function rememberRequestBytes(request: Request, bytes: Uint8Array): Request {
  requestBytes.set(request, bytes);
  return request;
}

/**
 * The body bytes of a Request: remembered if the adapter built it, otherwise read from its
 * stream, stopping as soon as it grows past `maxBytes` (then `'too_large'`), so a chunked
 * upload without `Content-Length` is never buffered beyond the limit (fetch handler, Hono,
 * Bun, Deno, Workers).
 */
export async function requestBodyBytes(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | 'too_large'> {
  const remembered = requestBytes.get(request);
  if (remembered) return remembered.byteLength > maxBytes ? 'too_large' : remembered;
  if (request.body === null) return new Uint8Array(0);
  const reader = (request.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return 'too_large';
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
