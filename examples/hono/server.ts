// programrun in a Hono app on @hono/node-server, next to a route of the app's own (GET /health).
// Start it from the repository root: npx -y pnpm@10.34.9 --filter @programrun/example-hono start
// The engine (scenarios, memory store, key, scheduler) is ../shared/demo-engine.ts.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { programrunHono } from '@programrun/http/hono';
import { banner, createDemoEngine, fail } from '@programrun/example-shared/demo-engine';

const port = Number(process.env.PORT ?? 8787);
const demo = await createDemoEngine();

const app = new Hono();
app.get('/health', (context) => context.json({ ok: true }));
// c.req.raw is already a fetch Request: it goes to programrun as it is.
app.all('/v1/*', programrunHono(demo.handler));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, ({ port: bound }) => {
  console.log(banner('Hono', `http://127.0.0.1:${bound}`, demo));
});
server.on('error', (error: Error) => fail(error.message));

process.on('SIGTERM', () => {
  server.close();
  void demo.stop().then(() => process.exit(0));
});
