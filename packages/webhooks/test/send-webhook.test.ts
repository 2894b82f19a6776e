import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenCounting } from './loopback-server.js';
import type { Resolver } from '../src/guarded-lookup.js';
import {
  createWebhookAgents,
  isSuccessfulAttempt,
  RESPONSE_BODY_LIMIT,
  sendWebhook,
  type WebhookAgents,
  type WebhookRequest,
} from '../src/send-webhook.js';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A loopback server that records what it receives and counts its connections. */
interface Receiver {
  readonly server: Server;
  readonly port: number;
  readonly received: Received[];
  connections: number;
}

type Route = (request: IncomingMessage, response: ServerResponse) => void;

async function receiver(route: Route): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      route(request, response);
    });
  });
  return listenCounting(server, { server, port: 0, received, connections: 0 });
}

const MEGABYTE = Buffer.alloc(1024 * 1024, 'x');

const routes: Route = (request, response) => {
  switch (request.url) {
    case '/ok':
      response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      return;
    case '/fail':
      response.writeHead(500).end('database unavailable');
      return;
    case '/hang':
      return; // Never answers.
    case '/big':
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(MEGABYTE);
      return;
    case '/to-metadata':
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      return;
    default:
      // `/to-trap?port=…`: a redirect to the trap server.
      response
        .writeHead(307, { location: `http://127.0.0.1:${request.url?.split('=')[1]}/` })
        .end('moved');
  }
};

describe('sendWebhook', () => {
  let target: Receiver;
  let trap: Receiver;
  let closedPort: number;
  let agents: WebhookAgents;

  beforeAll(async () => {
    target = await receiver(routes);
    trap = await receiver((_request, response) => response.end('trapped'));
    const closed = await receiver(() => undefined);
    closedPort = closed.port;
    await closeServer(closed.server);
    agents = createWebhookAgents();
  });

  afterAll(async () => {
    agents.destroy();
    await Promise.all([closeServer(target.server), closeServer(trap.server)]);
  });

  const local = (path: string, overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
    url: `http://127.0.0.1:${target.port}${path}`,
    headers: {},
    body: '{}',
    timeoutMs: 2000,
    environment: 'test',
    allowLoopback: true,
    agents,
    ...overrides,
  });

  it('POSTs the exact body bytes and headers, and records status, latency and response body', async () => {
    const body = '{"id":"evt_1","data":{"name":"Zoë 🚀","amount":"12.50"}}';
    const result = await sendWebhook(
      local('/ok', {
        body,
        headers: {
          'webhook-id': 'evt_1',
          'webhook-timestamp': '1767225600',
          'webhook-signature': 'v1,c2lnbmF0dXJl',
        },
      }),
    );
    expect(result).toMatchObject({ status: 200, error: null, responseBody: 'thanks' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.latencyMs).toBeLessThan(2000);
    expect(isSuccessfulAttempt(result)).toBe(true);
    const request = target.received.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/ok');
    expect(request.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'programrun-webhooks/1',
      'content-length': String(Buffer.byteLength(body)),
      'webhook-id': 'evt_1',
      'webhook-timestamp': '1767225600',
      'webhook-signature': 'v1,c2lnbmF0dXJl',
      host: `127.0.0.1:${target.port}`,
    });
  });

  it('keeps its own content-type, user-agent and content-length over the caller’s', async () => {
    await sendWebhook(
      local('/ok', {
        headers: { 'Content-Type': 'text/plain', 'User-Agent': 'spoof', 'Content-Length': '1' },
      }),
    );
    expect(target.received.at(-1)!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'programrun-webhooks/1',
      'content-length': '2',
    });
  });

  it('reuses one keep-alive connection for consecutive deliveries', async () => {
    await sendWebhook(local('/ok'));
    const before = target.connections;
    for (let index = 0; index < 5; index += 1) {
      expect((await sendWebhook(local('/ok'))).status).toBe(200);
    }
    expect(target.connections).toBe(before);
  });

  it('delivers to localhost names when loopback is allowed', async () => {
    const resolve: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const result = await sendWebhook(
      local('/ok', { url: `http://localhost:${target.port}/ok`, resolve }),
    );
    expect(result).toMatchObject({ status: 200, error: null });
  });

  it('does not reuse a connection opened under a looser policy', async () => {
    const resolve: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const url = `http://pooled.example:${target.port}/ok`;
    expect((await sendWebhook(local('/ok', { url, resolve }))).status).toBe(200);
    const count = target.received.length;
    const strict = await sendWebhook(local('/ok', { url, resolve, allowLoopback: false }));
    expect(strict).toMatchObject({ status: null, error: { code: 'forbidden_address' } });
    expect(target.received.length).toBe(count);
  });

  it('records a 500 answer as a result with its status', async () => {
    const result = await sendWebhook(local('/fail'));
    expect(result).toMatchObject({
      status: 500,
      error: null,
      responseBody: 'database unavailable',
    });
    expect(isSuccessfulAttempt(result)).toBe(false);
  });

  it('does not follow a redirect to the metadata service', async () => {
    const result = await sendWebhook(local('/to-metadata'));
    expect(result).toMatchObject({ status: 302, error: { code: 'redirect_not_followed' } });
    expect(isSuccessfulAttempt(result)).toBe(false);
  });

  it('does not follow a redirect to another server', async () => {
    const result = await sendWebhook(local(`/to-trap?port=${trap.port}`));
    expect(result).toMatchObject({
      status: 307,
      error: { code: 'redirect_not_followed' },
      responseBody: 'moved',
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(trap.connections).toBe(0);
  });

  it('gives up with `timeout` when the receiver never answers', async () => {
    const started = performance.now();
    const result = await sendWebhook(local('/hang', { timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ status: null, error: { code: 'timeout' } });
    expect(result.error?.message).toContain('300 ms');
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(300 + 200);
  });

  it('times out when the connection itself never completes (timeout covers lookup and connect)', async () => {
    const stalled: Resolver = () => new Promise(() => undefined);
    const started = performance.now();
    const result = await sendWebhook(
      local('/ok', { url: 'http://stalled.example/', resolve: stalled, timeoutMs: 300 }),
    );
    expect(result.error?.code).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(300 + 200);
  });

  it('reports `connection_failed` with the errno code for a closed port', async () => {
    const result = await sendWebhook(local('/ok', { url: `http://127.0.0.1:${closedPort}/` }));
    expect(result).toMatchObject({ status: null, error: { code: 'connection_failed' } });
    expect(result.error?.message).toContain('ECONNREFUSED');
  });

  it('reports `connection_failed` when the host name does not resolve', async () => {
    const result = await sendWebhook(
      local('/ok', { url: 'http://nowhere.example/', resolve: () => Promise.resolve([]) }),
    );
    expect(result).toMatchObject({ status: null, error: { code: 'connection_failed' } });
    expect(result.error?.message).toContain('ENOTFOUND');
  });

  it('reports `tls_error` when the endpoint does not speak TLS', async () => {
    const result = await sendWebhook(local('/ok', { url: `https://127.0.0.1:${target.port}/ok` }));
    expect(result).toMatchObject({ status: null, error: { code: 'tls_error' } });
  });

  it('keeps the first 1 KiB of a 1 MB answer and does not wait for the rest', async () => {
    const started = performance.now();
    const result = await sendWebhook(local('/big'));
    expect(result.status).toBe(200);
    expect(result.responseBody).toBe('x'.repeat(RESPONSE_BODY_LIMIT));
    expect(performance.now() - started).toBeLessThan(1000);
    // The connection is dropped, not left reading: the next delivery still works.
    expect((await sendWebhook(local('/ok'))).status).toBe(200);
  });

  it('works without agents (one connection per attempt)', async () => {
    const { agents: shared, ...request } = local('/ok');
    expect(shared).toBe(agents);
    expect(await sendWebhook(request)).toMatchObject({ status: 200, error: null });
  });

  it('turns URL problems into results without connecting', async () => {
    const before = target.connections;
    const cases: [Partial<WebhookRequest>, string][] = [
      [{ url: 'not a url' }, 'invalid_url'],
      [
        { url: `http://hooks.example/`, environment: 'live', allowLoopback: false },
        'https_required',
      ],
      [{ url: `http://u:p@127.0.0.1:${target.port}/ok` }, 'credentials_in_url'],
      [{ url: `http://127.0.0.1:${target.port}/ok`, allowLoopback: false }, 'forbidden_address'],
      [
        { url: `http://[::ffff:7f00:1]:${target.port}/ok`, allowLoopback: false },
        'forbidden_address',
      ],
      [{ url: `http://10.0.0.1:${target.port}/ok` }, 'forbidden_address'],
    ];
    for (const [overrides, code] of cases) {
      const result = await sendWebhook(local('/ok', overrides));
      expect(result, overrides.url).toMatchObject({ status: null, error: { code } });
    }
    expect(target.connections).toBe(before);
  });

  it('turns a header Node refuses into `invalid_request` instead of throwing', async () => {
    const result = await sendWebhook(local('/ok', { headers: { 'bad header': 'x' } }));
    expect(result).toMatchObject({ status: null, error: { code: 'invalid_request' } });
  });
});
