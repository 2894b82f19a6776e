// A real programrun host process that calls a partner: like host.ts (the store from the
// environment, every scenario, the HTTP surface on 127.0.0.1), but live, with the HTTP
// connector for wallet-delivery's two partners and the scheduler running the handoff
// workers. Started by host-process.ts:
//   node --conditions=@programrun/source --import tsx test/support/partner-host.ts
// Environment: the store variables of host.ts, PROGRAMRUN_LIVE_KEY and
// PROGRAMRUN_LIVE_ACCOUNT (registered when absent), PROGRAMRUN_PARTNER_URL and
// PROGRAMRUN_PARTNER_SECRET, PROGRAMRUN_PARTNER_CONCURRENCY (unset: no limit),
// PROGRAMRUN_HANDOFF_LEASE_MS (default 1500), PROGRAMRUN_HANDOFF_MAX_IN_FLIGHT (this host's
// calls at once; unset: the engine's default), PORT (0 = any).
// Prints one JSON line when it listens: {"ready":true,"port":…,"pid":…}
// SIGTERM stops it cleanly (workers drained, store closed); SIGKILL is what the crash suite sends.
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import { createAccounts, createEngine, isStoreError, startScheduler } from '@programrun/engine';
import { createHttpConnector } from '@programrun/webhooks';
import { createHandler } from '@programrun/http';
import { openHostStore } from './host-store.js';
import { serveHost } from './serve-host.js';

function fail(reason: unknown): never {
  console.error(
    `partner host: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
  );
  process.exit(1);
}

const environment = process.env;
const key = environment.PROGRAMRUN_LIVE_KEY;
const account = environment.PROGRAMRUN_LIVE_ACCOUNT ?? 'acct_partners';
const url = environment.PROGRAMRUN_PARTNER_URL;
const secret = environment.PROGRAMRUN_PARTNER_SECRET;
if (!key || !url || !secret) {
  fail('PROGRAMRUN_LIVE_KEY, PROGRAMRUN_PARTNER_URL and PROGRAMRUN_PARTNER_SECRET are required');
}
const port = Number(environment.PORT ?? 0);
const concurrency = environment.PROGRAMRUN_PARTNER_CONCURRENCY
  ? Number(environment.PROGRAMRUN_PARTNER_CONCURRENCY)
  : undefined;
const leaseMs = Number(environment.PROGRAMRUN_HANDOFF_LEASE_MS ?? 1_500);

const scenarioDirectory = fileURLToPath(new URL('../../../../scenarios/', import.meta.url));
const [opened, scenarios] = await Promise.all([
  openHostStore(environment).catch(fail),
  loadCatalogue(scenarioDirectory).catch((error: Error) => fail(error.message)),
]);

// A call may take up to the lease; the connector gives up a little before it.
const connector = createHttpConnector({
  url,
  secret,
  allowLoopback: true,
  timeoutMs: leaseMs - 200,
});
const partner = {
  connector,
  ...(concurrency === undefined ? {} : { concurrency }),
  // Kills make calls fail in a row; a long-open breaker would only slow the suite down.
  breaker: { failureThreshold: 1_000 },
};
const engine = createEngine({
  store: opened.store,
  scenarios,
  connectors: { chain_analytics: partner, custodian: partner },
  handoffs: {
    leaseMs,
    retry: { initialMs: 50, factor: 2, maxMs: 400 },
    pollIntervalMs: 50,
    ...(environment.PROGRAMRUN_HANDOFF_MAX_IN_FLIGHT
      ? { maxInFlight: Number(environment.PROGRAMRUN_HANDOFF_MAX_IN_FLIGHT) }
      : {}),
  },
  timerLeaseMs: 2_000,
});
const accounts = createAccounts({ store: opened.store });
await accounts.apiKeys
  .register({ account, environment: 'live', secret: key, description: 'partner host' })
  .catch(fail);

const scheduler = startScheduler(engine, {
  intervalMs: 100,
  environments: ['live'],
  onError: (error: unknown) => {
    // A store closing under a tick during shutdown is expected; anything else is worth seeing.
    if (isStoreError(error, 'store_unavailable')) return;
    console.error('partner host scheduler:', error);
  },
});

const handler = createHandler({ engine, accounts, rateLimit: false });
serveHost(handler, port, () => scheduler.stop().then(() => opened.close()), fail);
