// A handler answers its own `paths` (default /v1) through every adapter, so a second
// handler (the run console at /console) mounts next to the API; firstMatching serves
// both from one listener.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { fastify } from 'fastify';
import { Hono } from 'hono';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../src/express.js';
import { programrunFastify } from '../src/fastify.js';
import { firstMatching } from '../src/first-matching.js';
import type { Handler } from '../src/handler.js';
import { programrunHono } from '../src/hono.js';
import { createNodeListener } from '../src/node.js';
import { listen, listenNode, serveFetch, type Listening } from './adapter-servers.js';
import { ADAPTERS, TEST_KEY, createTestHandler } from './harness.js';

const auth = { authorization: `Bearer ${TEST_KEY}` };

/** A stand-in for the console handler: answers its paths with the method and path. */
const consoleLike: Handler = {
  paths: ['/console'],
  maxBodyBytes: 1024,
  handle: (request) =>
    Promise.resolve(
      new Response(`console ${request.method} ${new URL(request.url).pathname}`, {
        headers: { 'content-type': 'text/plain' },
      }),
    ),
};

let api: Handler;
let listening: Listening | undefined;

beforeAll(async () => {
  ({ handler: api } = await createTestHandler());
});

afterEach(async () => {
  await listening?.close();
  listening = undefined;
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${listening!.baseUrl}${path}`, { ...init, headers: auth });

async function expectBoth() {
  for (const path of ['/console', '/console/', '/console/runs/prun_1', '/console/assets/a.js']) {
    const response = await get(path);
    expect(response.status, path).toBe(200);
    expect(await response.text()).toBe(`console GET ${path}`);
  }
  expect(await (await get('/console/x', { method: 'POST' })).text()).toBe(
    'console POST /console/x',
  );
  const scenarios = await get('/v1/scenarios');
  expect(scenarios.status).toBe(200);
  expect(((await scenarios.json()) as { object: string }).object).toBe('list');
}

describe('firstMatching', () => {
  it('sends each path to the first handler covering it, anything else to the last', async () => {
    const both = firstMatching(consoleLike, api);
    expect(both.paths).toEqual(['/console', '/v1']);
    expect(both.maxBodyBytes).toBe(api.maxBodyBytes);
    const answer = (path: string) =>
      both.handle(new Request(`http://host${path}`, { headers: auth }));
    expect(await (await answer('/console/runs/x')).text()).toBe('console GET /console/runs/x');
    expect((await answer('/v1/scenarios')).status).toBe(200);
    expect((await answer('/healthz')).status).toBe(200); // the /v1 handler's probe
    expect((await answer('/consoles')).status).toBe(404); // not under /console: the API's 404
  });
});

describe.each(ADAPTERS)('firstMatching(console, api) over the %s adapter', (adapter) => {
  it('answers /console from the console and /v1 from the API', async () => {
    const both = firstMatching(consoleLike, api);
    listening =
      adapter === 'hono'
        ? await (() => {
            const app = new Hono();
            app.use(programrunHono(both));
            return serveFetch(app.fetch);
          })()
        : await listen(adapter, both);
    await expectBoth();
  });
});

describe('each handler mounted on its own, next to the host’s routes', () => {
  it('node: one listener over firstMatching', async () => {
    listening = await listenNode(createServer(createNodeListener(firstMatching(consoleLike, api))));
    await expectBoth();
  });

  it('express: the console’s middleware and the API’s, host routes after', async () => {
    const app = express();
    app.use(createExpressMiddleware(consoleLike));
    app.use(createExpressMiddleware(api));
    app.get('/health', (_request, response) => void response.json({ ok: true }));
    listening = await listenNode(createServer(app));
    await expectBoth();
    expect(await (await get('/health')).json()).toEqual({ ok: true });
    expect((await get('/consoles')).status).toBe(404); // Express's own 404
  });

  it('fastify: one plugin per handler, host routes beside them', async () => {
    const app = fastify();
    await app.register(programrunFastify, { handler: consoleLike });
    await app.register(programrunFastify, { handler: api });
    app.get('/health', () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    listening = { baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
    await expectBoth();
    expect(await (await get('/health')).json()).toEqual({ ok: true });
  });

  it('hono: one middleware per handler', async () => {
    const app = new Hono();
    app.use(programrunHono(consoleLike));
    app.use(programrunHono(api));
    app.get('/health', (context) => context.json({ ok: true }));
    listening = await serveFetch(app.fetch);
    await expectBoth();
    expect(await (await get('/health')).json()).toEqual({ ok: true });
    expect((await get('/elsewhere')).status).toBe(404); // Hono's own 404
  });

  it('a handler without paths answers /v1 only, as before', async () => {
    const app = express();
    app.use(createExpressMiddleware(api));
    listening = await listenNode(createServer(app));
    expect((await get('/v1/scenarios')).status).toBe(200);
    expect((await get('/console/')).status).toBe(404); // passed on: Express's 404
  });
});
