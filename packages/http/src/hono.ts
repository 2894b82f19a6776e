import type { MiddlewareHandler } from 'hono';
import type { Handler } from './handler.js';
import { handlerPaths, isUnderPaths } from './v1-path.js';

/**
 * The Hono adapter: a handler that passes `c.req.raw` (already a fetch `Request`)
 * straight to `handle` for `/v1` and everything under it (the handler's `paths`), and
 * calls `next()` for any other path. Use it as a route (`app.all('/v1/*', …)`) or as middleware
 * (`app.use(…)`). The handler matches absolute `/v1/...` paths, so to serve it under a
 * prefix use `app.mount('/prefix', (request) => handler.handle(request))`, which strips it.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { serve } from '@hono/node-server';
 * import { programrunHono } from '@programrun/http/hono';
 *
 * const app = new Hono();
 * app.get('/health', (c) => c.json({ ok: true }));
 * app.all('/v1/*', programrunHono(handler));
 * serve({ fetch: app.fetch, port: 8787, hostname: '127.0.0.1' });
 * ```
 */
export function programrunHono(handler: Handler): MiddlewareHandler {
  const paths = handlerPaths(handler);
  return async (context, next) => {
    if (isUnderPaths(paths, context.req.path)) return handler.handle(context.req.raw);
    await next();
  };
}
