// One handler, served over a real loopback socket by each adapter the contract suites
// run against, mounted the way the guide tells hosts to mount it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { fastify } from 'fastify';
import { Hono } from 'hono';
import { createExpressMiddleware } from '../src/express.js';
import { programrunFastify, programrunFrameworkErrors } from '../src/fastify.js';
import type { Handler } from '../src/handler.js';
import { programrunHono } from '../src/hono.js';
import { createNodeListener } from '../src/node.js';

/** The ways a host can serve programrun; the contract suites run against each. */
export const ADAPTERS = ['node', 'express', 'fastify', 'hono', 'fetch'] as const;
export type Adapter = (typeof ADAPTERS)[number];

/** A server listening on 127.0.0.1. */
export interface Listening {
  readonly baseUrl: string;
  readonly close: () => Promise<void>;
}

function listening(server: Pick<Server, 'address' | 'close'>): Listening {
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}

/** Listens with a node:http server on a free port. */
export async function listenNode(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return listening(server);
}

/** Serves a fetch handler with `@hono/node-server`, as Bun.serve and Deno.serve would. */
export function serveFetch(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<Listening> {
  return new Promise<Listening>((resolve) => {
    // Without createServer options, serve() makes a node:http server.
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(listening(server as Server)),
    );
  });
}

const servers: Record<Adapter, (handler: Handler) => Promise<Listening>> = {
  node: (handler) => listenNode(createServer(createNodeListener(handler))),
  express(handler) {
    const app = express();
    app.use(createExpressMiddleware(handler));
    app.use(express.json()); // the host's own parser, mounted after programrun as documented
    return listenNode(createServer(app));
  },
  async fastify(handler) {
    // frameworkErrors: URLs Fastify's router cannot decode (/v1/%zz) reach programrun too.
    const app = fastify({ frameworkErrors: programrunFrameworkErrors(handler) });
    await app.register(programrunFastify, { handler });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      close: () => app.close(),
    };
  },
  hono(handler) {
    const app = new Hono();
    app.all('/v1/*', programrunHono(handler));
    return serveFetch(app.fetch);
  },
  fetch: (handler) => serveFetch((request) => handler.handle(request)),
};

/**
 * Serves `handler` with `adapter` on a free port of 127.0.0.1.
 *
 * @example
 * ```ts
 * const { baseUrl, close } = await listen('fastify', handler);
 * ```
 */
export function listen(adapter: Adapter, handler: Handler): Promise<Listening> {
  return servers[adapter](handler);
}
