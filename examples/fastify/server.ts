// programrun as a Fastify 5 plugin, next to a route of the app's own (GET /health).
// Start it from the repository root: npx -y pnpm@10.34.9 --filter @programrun/example-fastify start
// The engine (scenarios, memory store, key, scheduler) is ../shared/demo-engine.ts.
import type { AddressInfo } from 'node:net';
import { fastify } from 'fastify';
import { programrunFastify, programrunFrameworkErrors } from '@programrun/http/fastify';
import { banner, createDemoEngine, fail } from '@programrun/example-shared/demo-engine';

const port = Number(process.env.PORT ?? 8787);
const demo = await createDemoEngine();

// frameworkErrors: URLs Fastify's router cannot decode (/v1/%zz) get programrun's answer too.
const app = fastify({ frameworkErrors: programrunFrameworkErrors(demo.handler) });
// The plugin is encapsulated: its raw-body parser and error handling stay inside it.
await app.register(programrunFastify, { handler: demo.handler });
app.get('/health', () => ({ ok: true }));

try {
  await app.listen({ port, host: '127.0.0.1' });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
console.log(
  banner('Fastify', `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, demo),
);

process.on('SIGTERM', () => {
  void Promise.all([app.close(), demo.stop()]).then(() => process.exit(0));
});
