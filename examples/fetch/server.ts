// programrun as a plain fetch handler, next to a route of the host's own (GET /health).
// `app` below is what Bun.serve, Deno.serve and a Cloudflare Worker take; on Node,
// @hono/node-server serves the same function (no framework involved).
// Start it from the repository root: npx -y pnpm@10.34.9 --filter @programrun/example-fetch start
// The engine (scenarios, memory store, key, scheduler) is ../shared/demo-engine.ts.
import { serve } from '@hono/node-server';
import { banner, createDemoEngine, fail } from '@programrun/example-shared/demo-engine';

const port = Number(process.env.PORT ?? 8787);
const demo = await createDemoEngine();

/** The host: its own route, and everything else to programrun's `handle`. */
const app = {
  fetch(this: void, request: Request): Promise<Response> | Response {
    if (new URL(request.url).pathname === '/health') return Response.json({ ok: true });
    return demo.handler.handle(request);
  },
};
// Bun:     Bun.serve({ port, fetch: app.fetch })
// Deno:    Deno.serve({ port }, app.fetch)
// Workers: export default app

const server = serve(
  { fetch: app.fetch, port, hostname: '127.0.0.1', overrideGlobalObjects: false },
  ({ port: bound }) => {
    console.log(banner('a fetch handler', `http://127.0.0.1:${bound}`, demo));
  },
);
server.on('error', (error: Error) => fail(error.message));

process.on('SIGTERM', () => {
  server.close();
  void demo.stop().then(() => process.exit(0));
});
