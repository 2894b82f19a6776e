import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { markOversized, rememberRequestBytes, rememberedResponseText } from './body-cache.js';
import type { Handler } from './handler.js';

/** Options of {@link createNodeListener}. */
export interface NodeListenerOptions {
  /** Stop reading bodies beyond this size (the handler answers 413). @default the handler's limit */
  readonly maxBodyBytes?: number;
}

async function readBody(message: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of message) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) return 'too_large';
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
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
  const host = message.headers.host ?? 'localhost';
  const url = new URL(message.url ?? '/', `http://${host}`);
  const headers = new Headers();
  for (let index = 0; index < message.rawHeaders.length; index += 2) {
    headers.append(message.rawHeaders[index]!, message.rawHeaders[index + 1]!);
  }
  const method = message.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  const body = await readBody(message, maxBodyBytes);
  if (body === 'too_large') return markOversized(new Request(url, { method, headers }));
  return rememberRequestBytes(new Request(url, { method, headers, body }), body);
}

/**
 * Writes a fetch `Response` to a Node response.
 *
 * @example
 * ```ts
 * await writeResponse(await handler.handle(request), res);
 * ```
 */
export async function writeResponse(response: Response, target: ServerResponse): Promise<void> {
  const remembered = rememberedResponseText(response);
  const body =
    remembered === undefined ? Buffer.from(await response.arrayBuffer()) : Buffer.from(remembered);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['content-length'] = String(body.length);
  target.writeHead(response.status, headers);
  target.end(body);
}

/**
 * The node:http adapter: a request listener for `http.createServer`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createNodeListener } from '@programrun/http/node';
 * createServer(createNodeListener(handler)).listen(8787, '127.0.0.1');
 * ```
 */
export function createNodeListener(
  handler: Handler,
  options: NodeListenerOptions = {},
): RequestListener {
  const maxBodyBytes = options.maxBodyBytes ?? handler.maxBodyBytes;
  return (message, response) => {
    void (async () => {
      try {
        await writeResponse(
          await handler.handle(await toFetchRequest(message, maxBodyBytes)),
          response,
        );
      } catch {
        if (!response.headersSent) {
          response.writeHead(500, { 'content-type': 'application/problem+json' });
          response.end(
            JSON.stringify({
              type: 'https://programrun.dev/problems/internal_error',
              title: 'Internal error',
              status: 500,
              code: 'internal_error',
            }),
          );
        } else {
          response.destroy();
        }
      }
    })();
  };
}
