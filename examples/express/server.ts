// programrun in an Express 5 app, next to a route of the app's own (GET /health).
// Start it from the repository root: npx -y pnpm@10.34.9 --filter @programrun/example-express start
// The engine (scenarios, memory store, key, scheduler) is ../shared/demo-engine.ts.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createExpressMiddleware } from '@programrun/http/express';
import { banner, createDemoEngine, fail } from '@programrun/example-shared/demo-engine';

const port = Number(process.env.PORT ?? 8787);
const demo = await createDemoEngine();

const app = express();
// programrun reads the raw body itself, so it goes before express.json() and friends.
app.use(createExpressMiddleware(demo.handler));
app.use(express.json());
app.get('/health', (_request, response) => {
  response.json({ ok: true });
});

const server = app.listen(port, '127.0.0.1', (error) => {
  if (error) fail(error.message);
  console.log(
    banner('Express', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, demo),
  );
});

process.on('SIGTERM', () => {
  server.close();
  void demo.stop().then(() => process.exit(0));
});
