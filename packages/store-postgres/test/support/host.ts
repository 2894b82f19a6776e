// A real programrun host process for the crash and two-host suites: the store from the
// environment, every scenario of the repository, a scheduler and a webhook dispatcher,
// and the HTTP surface on 127.0.0.1. Started by host-process.ts from TypeScript sources:
//   node --conditions=@programrun/source --import tsx test/support/host.ts
// Environment: PROGRAMRUN_STORE, PROGRAMRUN_DATA_DIR, DATABASE_URL, PROGRAMRUN_POSTGRES_SCHEMA,
// PROGRAMRUN_TEST_KEY and PROGRAMRUN_TEST_ACCOUNT (registered when absent), PORT (0 = any),
// PROGRAMRUN_RESPONSE_DELAY_MS (simulated partners).
// Prints one JSON line when it listens: {"ready":true,"port":…,"pid":…}
// SIGTERM stops it cleanly (store closed); SIGKILL is what the crash suite sends.
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import { createAccounts, createEngine, isStoreError, startScheduler } from '@programrun/engine';
import { createWebhookDispatcher } from '@programrun/webhooks';
import { createHandler } from '@programrun/http';
import { openHostStore } from './host-store.js';
import { serveHost } from './serve-host.js';

/** Short leases and polls, so a killed host's work is taken over within seconds. */
const TIMER_LEASE_MS = 2_000;
const SCHEDULER_INTERVAL_MS = 100;
const DISPATCHER_POLL_MS = 200;
const WEBHOOK_TIMEOUT_MS = 2_000;

function fail(reason: unknown): never {
  console.error(
    `host: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
  );
  process.exit(1);
}

const environment = process.env;
const key = environment.PROGRAMRUN_TEST_KEY;
const account = environment.PROGRAMRUN_TEST_ACCOUNT ?? 'acct_durability';
if (!key) fail('PROGRAMRUN_TEST_KEY is required');
const port = Number(environment.PORT ?? 0);
const responseDelayMs = Number(environment.PROGRAMRUN_RESPONSE_DELAY_MS ?? 300);

const scenarioDirectory = fileURLToPath(new URL('../../../../scenarios/', import.meta.url));
const [opened, scenarios] = await Promise.all([
  openHostStore(environment).catch(fail),
  loadCatalogue(scenarioDirectory).catch((error: Error) => fail(error.message)),
]);

const engine = createEngine({
  store: opened.store,
  scenarios,
  sandbox: { responseDelayMs },
  webhooks: { allowLoopback: true },
  timerLeaseMs: TIMER_LEASE_MS,
});
// Registered unless a previous life of this host (or the other host) did.
const accounts = createAccounts({ store: opened.store });
await accounts.apiKeys
  .register({ account, environment: 'test', secret: key, description: 'host' })
  .catch(fail);

const logError = (label: string) => (error: unknown) => {
  // A store closing under a tick during shutdown is expected; anything else is worth seeing.
  if (isStoreError(error, 'store_unavailable')) return;
  console.error(`host ${label}:`, error);
};
const scheduler = startScheduler(engine, {
  intervalMs: SCHEDULER_INTERVAL_MS,
  environments: ['test'],
  onError: logError('scheduler'),
});
const dispatcher = createWebhookDispatcher(engine, {
  pollIntervalMs: DISPATCHER_POLL_MS,
  timeoutMs: WEBHOOK_TIMEOUT_MS,
  leaseMs: WEBHOOK_TIMEOUT_MS + 1_000,
  onError: logError('webhooks'),
});
dispatcher.start();

const handler = createHandler({
  engine,
  accounts,
  // The suites drive load on purpose.
  rateLimit: false,
});
serveHost(
  handler,
  port,
  () => Promise.all([scheduler.stop(), dispatcher.stop()]).then(() => opened.close()),
  fail,
);
