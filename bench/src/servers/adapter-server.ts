// One benchmark server: ADAPTER=node|express|fastify|hono, MODE=programrun|static.
// programrun: the adapter over the engine (memory store, wallet or SCENARIO, no rate
// limit). static: the same framework on the same route, parsing the JSON body, checking
// the key and answering 201 with a stored run record of the same size (BODY_FILE).
// Prints "ready <port>".
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { fastify } from 'fastify';
import { Hono } from 'hono';
import { createAccounts, createEngine, createMemoryStore } from '@programrun/engine';
import { createHandler, type Handler } from '@programrun/http';
import { createExpressMiddleware } from '@programrun/http/express';
import { programrunFastify } from '@programrun/http/fastify';
import { programrunHono } from '@programrun/http/hono';
import { createNodeListener } from '@programrun/http/node';
import { loadCompiled } from '../scenario.js';
import { BENCH_KEY } from './bench-key.js';

const adapter = process.env.ADAPTER ?? 'node';
const mode = process.env.MODE ?? 'programrun';
const PATH = '/v1/program-runs';

async function programrunHandler(): Promise<Handler> {
  const store = createMemoryStore();
  const engine = createEngine({
    store,
    scenarios: [await loadCompiled(process.env.SCENARIO ?? 'wallet-delivery@v1')],
  });
  const accounts = createAccounts({ store });
  await accounts.apiKeys.create({ account: 'acct_bench', environment: 'test', secret: BENCH_KEY });
  return createHandler({ engine, accounts, rateLimit: false });
}

const authorized = (value: unknown) => value === `Bearer ${BENCH_KEY}`;

async function listenNode(server: Server): Promise<number> {
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function start(): Promise<number> {
  const body = mode === 'static' ? readFileSync(process.env.BODY_FILE!, 'utf8') : '';
  const handler = mode === 'programrun' ? await programrunHandler() : undefined;
  switch (adapter) {
    case 'node': {
      if (handler) return listenNode(createServer(createNodeListener(handler)));
      return listenNode(
        createServer((request, response) => {
          const chunks: Buffer[] = [];
          request.on('data', (chunk: Buffer) => chunks.push(chunk));
          request.on('end', () => {
            JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (!authorized(request.headers.authorization)) return response.writeHead(401).end();
            response
              .writeHead(201, {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
              })
              .end(body);
          });
        }),
      );
    }
    case 'express': {
      const app = express();
      if (handler) app.use(createExpressMiddleware(handler));
      else {
        app.use(express.json());
        app.post(PATH, (request, response) => {
          if (!authorized(request.headers.authorization)) return void response.status(401).end();
          response.status(201).type('application/json').send(body);
        });
      }
      return listenNode(createServer(app));
    }
    case 'fastify': {
      const app = fastify();
      if (handler) await app.register(programrunFastify, { handler });
      else
        app.post(PATH, async (request, reply) => {
          if (!authorized(request.headers.authorization)) return reply.code(401).send();
          return reply.code(201).type('application/json').send(body);
        });
      await app.listen({ port: 0, host: '127.0.0.1' });
      app.server.keepAliveTimeout = 30_000;
      return (app.server.address() as AddressInfo).port;
    }
    case 'hono': {
      const app = new Hono();
      if (handler) app.use(programrunHono(handler));
      else
        app.post(PATH, async (context) => {
          await context.req.json();
          if (!authorized(context.req.header('authorization'))) return context.body(null, 401);
          return context.body(body, 201, { 'content-type': 'application/json' });
        });
      return new Promise<number>((resolve) => {
        const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
          resolve(info.port),
        ) as Server;
        server.keepAliveTimeout = 30_000;
      });
    }
    default:
      throw new Error(`unknown ADAPTER ${adapter}`);
  }
}

const port = await start();
console.log(`ready ${port}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
