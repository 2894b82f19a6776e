// What each adapter adds to the contract suites: raw bodies at the edges (chunked, over
// the limit, malformed Content-Type), and living next to the host's own routes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { fastify } from 'fastify';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../src/express.js';
import { programrunFastify, programrunFrameworkErrors } from '../src/fastify.js';
import type { Handler } from '../src/handler.js';
import { programrunHono } from '../src/hono.js';
import { listenNode, serveFetch, type Listening } from './adapter-servers.js';
import {
  ADAPTERS,
  TEST_KEY,
  createTestHandler,
  startTestServer,
  type TestServer,
} from './harness.js';

const auth = { authorization: `Bearer ${TEST_KEY}` };

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await response.json()) as { code: string; request_id: string };
  expect(problem).toMatchObject({ status, code });
  expect(problem.request_id).toBe(response.headers.get('request-id'));
}

/** A body sent with Transfer-Encoding: chunked (no Content-Length), in 1 KiB chunks. */
function chunked(text: string): { body: ReadableStream<Uint8Array>; duplex: 'half' } {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, (offset += 1024)));
    },
  });
  return { body, duplex: 'half' };
}

describe.each(ADAPTERS)('raw bodies over the %s adapter', (adapter) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(adapter);
  });
  afterAll(async () => {
    await server.close();
  });
  const post = (path: string, init: RequestInit & { duplex?: 'half' }) =>
    fetch(`${server.baseUrl}${path}`, { method: 'POST', ...init });
  const runBody = JSON.stringify({
    scenario_id: 'wallet-delivery@v1',
    inputs: {
      amount: '125.00',
      destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      network: 'base',
    },
  });

  it('reads a chunked body under the limit', async () => {
    const response = await post('/v1/program-runs', {
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'chunked-ok' },
      ...chunked(runBody),
    });
    expect(response.status).toBe(201);
  });

  it('answers 413 problem+json to a chunked body over the limit', async () => {
    const response = await post('/v1/program-runs', {
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'chunked-big' },
      ...chunked(JSON.stringify({ memo: 'x'.repeat(70_000) })),
    });
    await expectProblem(response, 413, 'payload_too_large');
  });

  it('answers 413 to a body far over the limit without resetting the connection', async () => {
    // The client is still uploading when the answer comes; it must get the answer, not a reset.
    const response = await post('/v1/program-runs', {
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'huge' },
      body: JSON.stringify({ memo: 'x'.repeat(20_000_000) }),
    });
    await expectProblem(response, 413, 'payload_too_large');
    expect((await fetch(`${server.baseUrl}/v1/scenarios`, { headers: auth })).status).toBe(200);
  });

  it('answers a malformed Content-Type with programrun’s 415', async () => {
    const response = await post('/v1/program-runs', {
      headers: { ...auth, 'content-type': 'json', 'idempotency-key': 'bad-type' },
      body: runBody,
    });
    await expectProblem(response, 415, 'unsupported_media_type');
  });

  it('answers /v1 itself and unknown paths under it with programrun’s 404', async () => {
    await expectProblem(await fetch(`${server.baseUrl}/v1`), 404, 'route_not_found');
    await expectProblem(await post('/v1/nope/deeper', { body: '{}' }), 404, 'route_not_found');
    // Not decodable: Fastify refuses it in its router unless given programrunFrameworkErrors.
    await expectProblem(await fetch(`${server.baseUrl}/v1/%zz`), 404, 'route_not_found');
  });
});

describe('next to the host’s own routes', () => {
  let handler: Handler;
  let listening: Listening | undefined;
  beforeAll(async () => {
    ({ handler } = await createTestHandler());
  });
  afterEach(async () => {
    await listening?.close();
    listening = undefined;
  });
  const get = (path: string) => fetch(`${listening!.baseUrl}${path}`, { headers: auth });

  it('express: passes other paths on, also under a mount path', async () => {
    const app = express();
    app.use('/payments', createExpressMiddleware(handler));
    app.use(express.json());
    app.post('/echo', (request, response) => void response.json(request.body));
    listening = await listenNode(createServer(app));
    expect((await get('/payments/v1/scenarios')).status).toBe(200);
    await expectProblem(await get('/payments/v1/nope'), 404, 'route_not_found');
    const echo = await fetch(`${listening.baseUrl}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await echo.json()).toEqual({ a: 1 });
    expect((await get('/v1/scenarios')).status).toBe(404); // not mounted there: Express's own 404
  });

  it('express: answers 400 body_already_read when a body parser ran first', async () => {
    const app = express();
    app.use(express.json());
    app.use(createExpressMiddleware(handler));
    listening = await listenNode(createServer(app));
    const response = await fetch(`${listening.baseUrl}/v1/program-runs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'parsed' },
      body: '{"scenario_id":"wallet-delivery@v1","inputs":{}}',
    });
    await expectProblem(response, 400, 'body_already_read');
    expect((await get('/v1/scenarios')).status).toBe(200); // bodiless requests still work
  });

  it('fastify: keeps the host’s parsers and error handler, and strips a register prefix', async () => {
    const app = fastify({
      frameworkErrors: programrunFrameworkErrors(handler, { prefix: '/payments' }),
    });
    app.setErrorHandler((_error, _request, reply) => reply.code(418).send('host'));
    await app.register(programrunFastify, { handler, prefix: '/payments' });
    app.post('/echo', (request) => request.body);
    app.post('/fail', () => {
      throw new Error('host route failed');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    listening = { baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
    expect((await get('/payments/v1/scenarios')).status).toBe(200);
    await expectProblem(await get('/payments/v1'), 404, 'route_not_found');
    const echo = await fetch(`${listening.baseUrl}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await echo.json()).toEqual({ a: 1 });
    expect((await fetch(`${listening.baseUrl}/fail`, { method: 'POST' })).status).toBe(418);
    await expectProblem(await get('/payments/v1/%zz'), 404, 'route_not_found');
    expect((await get('/elsewhere/%zz')).status).toBe(400); // Fastify's own answer, as before
  });

  it('hono: works as middleware next to host routes, and under app.mount', async () => {
    const app = new Hono();
    app.use(programrunHono(handler));
    app.get('/health', (context) => context.json({ ok: true }));
    app.mount('/payments', (request) => handler.handle(request));
    listening = await serveFetch(app.fetch);
    expect(await (await get('/health')).json()).toEqual({ ok: true });
    expect((await get('/v1/scenarios')).status).toBe(200);
    expect((await get('/payments/v1/scenarios')).status).toBe(200);
    await expectProblem(await get('/v1'), 404, 'route_not_found');
  });
});
