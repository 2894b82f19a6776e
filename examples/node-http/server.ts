// programrun reference server: the engine mounted in a plain node:http server.
// Start it from the repository root with the README's first command, or here with `pnpm start`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { compile, formatProblem, loadScenarioDirectory } from '@programrun/dsl';
import {
  createEngine,
  createWebhookDispatcher,
  generateApiKey,
  parseApiKey,
  startScheduler,
} from '@programrun/engine';
import {
  createKeySet,
  generateEd25519Jwk,
  parseStrictJson,
  type Ed25519PrivateJwk,
} from '@programrun/evidence';
import { createHandler } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';
import { keptSecret, openStoreFromEnvironment } from '@programrun/store-postgres';

function fail(reason: string): never {
  console.error(`programrun: ${reason}`);
  process.exit(1);
}

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`PORT must be a port number, not "${process.env.PORT}"`);
const configuredKey = process.env.PROGRAMRUN_TEST_KEY;
if (configuredKey !== undefined && parseApiKey(configuredKey)?.environment !== 'test')
  fail(
    'PROGRAMRUN_TEST_KEY is not a programrun test key (pr_test_ + 38 letters and digits ending in a checksum); make one with `npx -y pnpm@10.34.9 programrun keys create --account acct_demo --env test`',
  );

// The store: PGlite in a data directory by default (runs, events, keys, leads, webhook
// endpoints and timers survive restarts and SIGKILL); memory or PostgreSQL on request.
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
const opened = await openStoreFromEnvironment(process.env, {
  store: 'pglite',
  dataDir: fileURLToPath(new URL('../../.programrun/data', import.meta.url)),
}).catch((error: unknown) => fail(reason(error)));
// The server's own secrets live next to the PGlite files (not kept for memory or PostgreSQL).
const secretsDir = opened.kind === 'pglite' ? opened.location : null;

// Evidence signing key: a private Ed25519 JWK from PROGRAMRUN_EVIDENCE_KEY, else the one
// kept in the data directory (so bundles exported earlier still verify), else a fresh one.
let evidenceKey: Ed25519PrivateJwk;
try {
  evidenceKey = (
    process.env.PROGRAMRUN_EVIDENCE_KEY
      ? parseStrictJson(process.env.PROGRAMRUN_EVIDENCE_KEY)
      : parseStrictJson(
          (
            await keptSecret(secretsDir, 'evidence-key.jwk', () =>
              JSON.stringify(generateEd25519Jwk()),
            )
          ).value,
        )
  ) as Ed25519PrivateJwk;
} catch {
  fail('PROGRAMRUN_EVIDENCE_KEY must be a private Ed25519 JWK (JSON with kty, crv, x, d)');
}
let evidenceKeys: ReturnType<typeof createKeySet>;
try {
  evidenceKeys = createKeySet([{ key: evidenceKey, status: 'active' }]);
} catch (error) {
  fail(`PROGRAMRUN_EVIDENCE_KEY: ${error instanceof Error ? error.message : String(error)}`);
}

const scenarioDirectory = fileURLToPath(new URL('../../scenarios/', import.meta.url));
const { scenarios, problems } = await loadScenarioDirectory(scenarioDirectory);
if (problems.length > 0)
  fail(`scenarios have problems:\n${problems.map(formatProblem).join('\n')}`);

const engine = createEngine({
  store: opened.store,
  scenarios: scenarios.map((scenario) => compile(scenario)),
  // Simulated counterparties answer on their own two seconds after each handoff.
  sandbox: { responseDelayMs: 2_000 },
  evidence: { keys: evidenceKeys },
  // A development server: webhook endpoints may be loopback (http://127.0.0.1:…). Never in production.
  webhooks: { allowLoopback: true },
});
// The account's test key: the configured one, else the one kept in the data directory,
// else a new one; registered unless the store already has it (a restart).
const testKey =
  configuredKey ??
  (await keptSecret(secretsDir, 'test-api-key', () => generateApiKey('test'))).value;
await engine.apiKeys
  .register({
    account: 'acct_demo',
    environment: 'test',
    description: 'reference server',
    secret: testKey,
  })
  .catch((error: unknown) => fail(`test key: ${reason(error)}`));
const scheduler = startScheduler(engine, { intervalMs: 250 });
// Delivers webhook events from the outbox, apart from request handling.
const dispatcher = createWebhookDispatcher(engine);
dispatcher.start();
const handler = createHandler({ engine });
const server = createServer(createNodeListener(handler));
server.on('error', (error: NodeJS.ErrnoException) =>
  fail(
    error.code === 'EADDRINUSE' ? `port ${port} is in use; set PORT to another one` : error.message,
  ),
);

server.listen(port, '127.0.0.1', () => {
  const { port: bound } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${bound}`;
  const example = engine.scenarios.get('wallet-delivery@v1');
  const body = JSON.stringify({
    scenario_id: example.id,
    inputs: example.definition.example_inputs,
  });
  const where =
    opened.kind === 'memory'
      ? 'memory: nothing is kept when the server stops'
      : `${opened.kind} at ${opened.location}`;
  console.log(`programrun reference server on ${base} (store: ${opened.kind}, ${scenarios.length} scenarios)
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

Evidence (signed by ${evidenceKeys.signer.kid}${process.env.PROGRAMRUN_EVIDENCE_KEY ? '' : ', a key generated for this process: set PROGRAMRUN_EVIDENCE_KEY to keep one'}):
  curl -s ${base}/v1/access-requests -H "Authorization: Bearer ${testKey}" -H "Content-Type: application/json" \\
    -d '{"session_id":"<session>","name":"Ana","email":"ana@example.com","company":"Example","use_case":"Audit"}'
  curl -s ${base}/v1/program-runs/<id>/evidence -H "Authorization: Bearer ${testKey}" > bundle.json
  npx -y pnpm@10.34.9 programrun verify bundle.json --jwks ${base}/v1/evidence-keys`);
});

const shutdown = () => {
  server.close();
  void Promise.all([scheduler.stop(), dispatcher.stop()])
    .then(() => opened.close())
    .then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
