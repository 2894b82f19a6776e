// One programrun host of a cluster: a stateless engine over the PostgreSQL store that
// every host shares, its own timer scheduler and webhook dispatcher, and /v1 on
// 127.0.0.1:PORT. Start several (cluster.ts does) against one DATABASE_URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import { createAccounts, createEngine, startScheduler } from '@programrun/engine';
import { createWebhookDispatcher } from '@programrun/webhooks';
import { generateEd25519Jwk } from '@programrun/evidence';
import { createHandler } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';
import { createPostgresStore, type SqlStore } from '@programrun/store-postgres';
import { readHostConfig, type HostConfig } from './host-config.js';
import { seedTestKey } from './seed-test-key.js';

const oneLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();

function fail(reason: string): never {
  console.error(`programrun host: ${reason}`);
  process.exit(1);
}

let config: HostConfig;
try {
  config = readHostConfig(process.env, generateEd25519Jwk);
} catch (error) {
  fail(oneLine(error));
}

const scenarioDirectory = fileURLToPath(new URL('../../scenarios/', import.meta.url));
const scenarios = await loadCatalogue(scenarioDirectory).catch((error: Error) =>
  fail(error.message),
);

// Connects and applies pending migrations; hosts starting together take turns (an
// advisory lock), and a schema newer than this code stops the host here.
let store: SqlStore;
try {
  store = await createPostgresStore({
    connectionString: config.databaseUrl,
    maxConnections: config.poolSize,
    schema: config.schema,
  });
} catch (error) {
  fail(`cannot open ${config.databaseLabel} (schema ${config.schema}): ${oneLine(error)}`);
}

const engine = createEngine({
  store,
  scenarios,
  // Simulated counterparties answer two seconds after each handoff: timers any host fires.
  sandbox: { responseDelayMs: 2_000 },
  timerLeaseMs: config.timerLeaseMs,
  evidence: { keys: config.evidenceKeys },
  // A development cluster: webhook endpoints may be loopback. Never in production.
  webhooks: { allowLoopback: true },
});

const accounts = createAccounts({ store });
const label = config.name === undefined ? 'programrun host' : `programrun host ${config.name}`;
let testKey: string;
try {
  testKey = await seedTestKey(accounts.apiKeys, config.testKey);
} catch (error) {
  await store.close();
  fail(oneLine(error));
}

// Every host polls for due timers and webhook deliveries; claims with FOR UPDATE SKIP
// LOCKED and a lease split the work, so no timer or delivery is taken by two hosts at once.
const scheduler = startScheduler(engine, { intervalMs: 250 });
const dispatcher = createWebhookDispatcher(engine);
dispatcher.start();

const server = createServer(createNodeListener(createHandler({ engine, accounts })));
server.on('error', (error: NodeJS.ErrnoException) =>
  fail(
    error.code === 'EADDRINUSE'
      ? `port ${config.port} is in use; set PORT to another one`
      : oneLine(error),
  ),
);
server.listen(config.port, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  if (!config.testKey) console.log(`Test API key: ${testKey}`);
  if (!config.evidenceKeyConfigured) {
    console.log(
      'Evidence key generated for this process: give every host the same PROGRAMRUN_EVIDENCE_KEY',
    );
  }
  console.log(
    `${label} ready on http://127.0.0.1:${port} (pid ${process.pid}, ${config.databaseLabel}, schema ${config.schema}, pool ${config.poolSize})`,
  );
});

let stopping = false;
function shutdown(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  // Finish requests in flight (at most 10 s), stop polling, then release the connections.
  const closed = new Promise<void>((resolve) => {
    const force = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, 10_000);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
  void Promise.all([closed, scheduler.stop(), dispatcher.stop()])
    .then(() => store.close())
    .then(
      () => {
        console.log(`${label} stopped (${signal})`);
        process.exit(0);
      },
      (error: unknown) => fail(`shutdown: ${oneLine(error)}`),
    );
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
