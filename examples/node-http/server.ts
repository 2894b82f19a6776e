// programrun reference server: `programrun serve`'s server (the engine mounted in a plain
// node:http server, see packages/cli/src/serve/reference-server.ts) on this repository's
// scenarios, keeping its data in <repo>/.programrun/data.
// Start it from the repository root with the README's first command, or here with `pnpm start`.
import { fileURLToPath } from 'node:url';
import { startReferenceServer } from '@programrun/cli';

function fail(reason: string): never {
  console.error(`programrun: ${reason}`);
  process.exit(1);
}

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`PORT must be a port number, not "${process.env.PORT}"`);

// The store: PGlite in a data directory by default (runs, events, keys, leads, webhook
// endpoints and timers survive restarts and SIGKILL); memory or PostgreSQL on request.
const server = await startReferenceServer({
  port,
  host: '127.0.0.1',
  scenarioDirectory: fileURLToPath(new URL('../../scenarios/', import.meta.url)),
  environment: {
    ...process.env,
    PROGRAMRUN_DATA_DIR:
      process.env.PROGRAMRUN_DATA_DIR ||
      fileURLToPath(new URL('../../.programrun/data', import.meta.url)),
  },
}).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));

const base = server.url;
const testKey = server.testKey;
const example =
  server.scenarios.find((scenario) => scenario.id === 'wallet-delivery@v1') ?? server.scenarios[0]!;
const body = JSON.stringify({ scenario_id: example.id, inputs: example.definition.example_inputs });
const opened = server.store;
const where =
  opened.kind === 'memory'
    ? 'memory: nothing is kept when the server stops'
    : `${opened.kind} at ${opened.location ?? ''}`;
console.log(`programrun reference server on ${base} (store: ${opened.kind}, ${server.scenarios.length} scenarios)
Data: ${where}${opened.kind === 'pglite' ? '\n  (set PROGRAMRUN_DATA_DIR to keep it elsewhere; delete the directory to start over)' : ''}
Test API key: ${testKey}

Create a run:
  curl -s ${base}/v1/program-runs \\
    -H "Authorization: Bearer ${testKey}" \\
    -H "Idempotency-Key: $(node -e 'console.log(crypto.randomUUID())')" \\
    -H "Content-Type: application/json" \\
    -d '${body}'

Then follow it (simulated partners answer after ~2 s):
  curl -s ${base}/v1/program-runs/<id> -H "Authorization: Bearer ${testKey}"
  curl -s ${base}/v1/program-runs/<id>/approvals -H "Authorization: Bearer ${testKey}" \\
    -H "Content-Type: application/json" -d '{"step":"release_approval","decision":"approve","approver":"ops:you"}'
Catalogue: curl -s ${base}/v1/scenarios -H "Authorization: Bearer ${testKey}"

Webhooks (the answer holds the whsec_ signing secret, shown once; loopback URLs allowed here):
  curl -s ${base}/v1/webhook-endpoints -H "Authorization: Bearer ${testKey}" \
    -H "Idempotency-Key: $(node -e 'console.log(crypto.randomUUID())')" \
    -H "Content-Type: application/json" -d '{"url":"http://127.0.0.1:4000/webhooks"}'
  curl -s "${base}/v1/events?limit=5" -H "Authorization: Bearer ${testKey}"

Evidence (signed by ${server.evidence.kid}${server.evidence.configured ? '' : ', a key generated for this process: set PROGRAMRUN_EVIDENCE_KEY to keep one'}):
  curl -s ${base}/v1/access-requests -H "Authorization: Bearer ${testKey}" -H "Content-Type: application/json" \\
    -d '{"session_id":"<session>","name":"Ana","email":"ana@example.com","company":"Example","use_case":"Audit"}'
  curl -s ${base}/v1/program-runs/<id>/evidence -H "Authorization: Bearer ${testKey}" > bundle.json
  npx -y pnpm@10.34.9 programrun verify bundle.json --jwks ${base}/v1/evidence-keys`);

const shutdown = () => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
