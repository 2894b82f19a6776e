// Node request/response <-> fetch Request/Response, shared by the node:http, Express and
// Fastify adapters. Only `toFetchRequest` and `writeResponse` are public (via node.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { markOversized, rememberRequestBytes, rememberedResponseText } from './body-cache.js';
import { rememberClientAddress } from './client-address.js';

/** A request body as an adapter holds it: bytes, none (GET, HEAD) or cut off at the limit. */
export type NodeBody = Uint8Array | 'too_large' | undefined;

/** What a Node server needs to send a fetch `Response`. */
export interface ResponseParts {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

const hasBody = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

/**
 * Reads a Node request's body, stopping as soon as it passes `limit` bytes. The rest is
 * then drained and dropped, never buffered: the stream is not destroyed, so the 413 still
 * reaches the client, and {@link writeResponse} closes the connection afterwards.
 */
export function readNodeBody(message: IncomingMessage, limit: number): Promise<NodeBody> {
  if (!hasBody(message.method ?? 'GET')) return Promise.resolve(undefined);
  if (message.readableDidRead || message.destroyed) {
    // Someone else read it: its events are gone, and an empty body must not stand in.
    return Promise.reject(new Error('The request body was already read.'));
  }
  return new Promise<NodeBody>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      // Without 'data' listeners a flowing stream keeps flowing: the rest is discarded.
      message.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(() => resolve('too_large'));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks)));
    const onError = (error: Error) => settle(() => reject(error));
    const onClose = () =>
      settle(() => reject(new Error('The request closed before its body ended.')));
    message.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

// The Host header is the client's say-so: a malformed one ("a b") falls back to localhost
// rather than fail the request. Origin-form paths are appended, so "//v1" stays a path.
function requestUrl(path: string, host: string | undefined): URL {
  for (const origin of [`http://${host ?? 'localhost'}`, 'http://localhost']) {
    try {
      return new URL(path.startsWith('/') ? `${origin}${path}` : path, origin);
    } catch {
      // try the next origin
    }
  }
  return new URL('http://localhost/'); // unparseable: no route matches "/", so a 404
}

/**
 * Builds the fetch `Request` for a Node request whose body was already read; `path`
 * replaces the request's own (a framework that strips a mount prefix passes the rest).
 */
export function fetchRequestOf(
  message: IncomingMessage,
  body: NodeBody,
  path: string = message.url ?? '/',
): Request {
  const url = requestUrl(path, message.headers.host);
  const headers = new Headers();
  for (let index = 0; index < message.rawHeaders.length; index += 2) {
    headers.append(message.rawHeaders[index]!, message.rawHeaders[index + 1]!);
  }
  const method = message.method ?? 'GET';
  const from = (request: Request) => rememberClientAddress(request, message.socket?.remoteAddress);
  if (!hasBody(method)) return from(new Request(url, { method, headers }));
  if (body === 'too_large') return from(markOversized(new Request(url, { method, headers })));
  const bytes = body ?? new Uint8Array(0);
  return from(rememberRequestBytes(new Request(url, { method, headers, body: bytes }), bytes));
}

/**
 * Converts a Node request to a fetch `Request`. Bodies are read up front, so an
 * oversized one is cut off early and answered 413 without buffering it all.
 *
 * @example
 * ```ts
 * const request = await toFetchRequest(message, 65536);
 * ```
 */
export async function toFetchRequest(
  message: IncomingMessage,
  maxBodyBytes: number,
): Promise<Request> {
  return fetchRequestOf(message, await readNodeBody(message, maxBodyBytes));
}

/**
 * The status, headers (with `content-length`) and body bytes of a fetch `Response`.
 */
export async function responseParts(response: Response): Promise<ResponseParts> {
  const remembered = rememberedResponseText(response);
  const body =
    remembered === undefined ? Buffer.from(await response.arrayBuffer()) : Buffer.from(remembered);
  const headers = headersOf(response);
  headers['content-length'] = String(body.length);
  return { status: response.status, headers, body };
}

/**
 * True for a response written as it comes rather than buffered: Server-Sent Events.
 */
export function isEventStream(response: Response): boolean {
  return (
    response.body !== null &&
    (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream')
  );
}

/** The headers of a response as Node sets them. */
export function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/**
 * Writes an event stream chunk by chunk (no `Content-Length`), waiting for the client to
 * take each; a client that goes away cancels the stream, so its source lets go of what
 * it holds.
 */
async function writeEventStream(response: Response, target: ServerResponse): Promise<void> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  target.once('close', cancel);
  try {
    target.writeHead(response.status, headersOf(response));
    target.flushHeaders();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || target.destroyed) break;
      if (!target.write(value))
        await new Promise<void>((resolve) => {
          const go = () => {
            target.off('drain', go).off('close', go);
            resolve();
          };
          target.on('drain', go).on('close', go);
        });
    }
    if (!target.destroyed) target.end();
  } catch {
    cancel();
    target.destroy();
  } finally {
    target.off('close', cancel);
  }
}

/**
 * Writes a fetch `Response` to a Node response: buffered with its `Content-Length`, or,
 * for an event stream, as it comes.
 *
 * @example
 * ```ts
 * await writeResponse(await handler.handle(request), res);
 * ```
 */
export async function writeResponse(response: Response, target: ServerResponse): Promise<void> {
  if (isEventStream(response)) return writeEventStream(response, target);
  const { status, headers, body } = await responseParts(response);
  // Answered before the body was all read (a 413): the connection cannot be reused.
  if (!target.req.complete) headers.connection = 'close';
  target.writeHead(status, headers);
  target.end(body);
}
