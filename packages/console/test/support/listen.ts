// Serves a fetch-style handler over a real node:http server on 127.0.0.1 (a minimal
// bridge, as every adapter of @programrun/http is: method, raw path, headers in; status,
// headers, body out), and sends raw request paths that fetch would normalise first.
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening server. */
export interface Listening {
  readonly baseUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1 with `handle`. */
export async function listen(handle: (request: Request) => Promise<Response>): Promise<Listening> {
  const server = createServer((message, response) => {
    void (async () => {
      const headers = new Headers();
      for (let index = 0; index < message.rawHeaders.length; index += 2) {
        headers.append(message.rawHeaders[index]!, message.rawHeaders[index + 1]!);
      }
      const url = new URL(message.url ?? '/', `http://${message.headers.host ?? 'localhost'}`);
      const method = message.method ?? 'GET';
      const chunks: Buffer[] = [];
      for await (const chunk of message) chunks.push(chunk as Buffer);
      const body = method === 'GET' || method === 'HEAD' ? null : Buffer.concat(chunks);
      const answer = await handle(new Request(url, { method, headers, body }));
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => (out[name] = value));
      response.writeHead(answer.status, out);
      response.end(Buffer.from(await answer.arrayBuffer()));
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}

/** What a raw request answered. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Sends `path` exactly as given (no URL normalisation), as a hostile client would. */
export function rawGet(port: number, path: string, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}
