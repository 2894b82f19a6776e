// The engine every framework example mounts: all scenarios, the memory store (or the one
// PROGRAMRUN_STORE selects), simulated
// partners that answer after two seconds, an evidence key, the timer scheduler, the
// webhook dispatcher, and a
// test API key (PROGRAMRUN_TEST_KEY if set, else a new one). Only the mounting differs.
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import { createAccounts, createEngine, startScheduler, type Engine } from '@programrun/engine';
import { createWebhookDispatcher } from '@programrun/webhooks';
import { createKeySet, generateEd25519Jwk } from '@programrun/evidence';
import { createHandler, type ApiHandler } from '@programrun/http';
import { openStoreFromEnvironment } from '@programrun/store-postgres';

/** Prints a one-line reason and exits 1. */
export function fail(reason: string): never {
  console.error(`programrun: ${reason}`);
  process.exit(1);
}

/** What an example host mounts. */
export interface DemoEngine {
  readonly engine: Engine;
  /** The /v1 handler, authenticating with the engine's key store. */
  readonly handler: ApiHandler;
  /** The account's test key, to print. */
  readonly testKey: string;
  /** Ends the open event streams, stops the timer scheduler and the webhook dispatcher. */
  stop(): Promise<void>;
}

/** Builds the demo engine and handler over the repository's scenarios. */
export async function createDemoEngine(): Promise<DemoEngine> {
  const directory = fileURLToPath(new URL('../../scenarios/', import.meta.url));
  const scenarios = await loadCatalogue(directory).catch((error: Error) => fail(error.message));
  // Memory unless PROGRAMRUN_STORE says embedded or pglite (PROGRAMRUN_DATA_DIR) or postgres (DATABASE_URL).
  const opened = await openStoreFromEnvironment(process.env).catch((error: Error) =>
    fail(error.message),
  );
  const engine = createEngine({
    store: opened.store,
    scenarios,
    sandbox: { responseDelayMs: 2_000 }, // simulated partners answer after two seconds
    evidence: { keys: createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]) },
    webhooks: { allowLoopback: true }, // development: receivers on 127.0.0.1
  });
  const scheduler = startScheduler(engine);
  const dispatcher = createWebhookDispatcher(engine);
  dispatcher.start();
  const accounts = createAccounts({ store: opened.store });
  const configured = process.env.PROGRAMRUN_TEST_KEY;
  const account = { account: 'acct_demo', environment: 'test' } as const;
  // A configured key may already be in a durable store (a restart): register finds it.
  const testKey = await (
    configured
      ? accounts.apiKeys.register({ ...account, secret: configured }).then(() => configured)
      : accounts.apiKeys.create(account).then(({ secret }) => secret)
  ).catch((error: Error) => fail(`PROGRAMRUN_TEST_KEY: ${error.message}`));
  const handler = createHandler({ engine, accounts }); // Bearer keys from accounts.apiKeys
  return {
    engine,
    handler,
    testKey,
    stop: async () => {
      // Open event streams end now, so closing the server does not wait minutes for them.
      handler.closeStreams();
      await Promise.all([scheduler.stop(), dispatcher.stop()]);
      await opened.close();
    },
  };
}

/** The banner an example prints: its key, its own route and a curl that creates a run. */
export function banner(framework: string, base: string, demo: DemoEngine): string {
  const example = demo.engine.scenarios.get('wallet-delivery@v1');
  const body = JSON.stringify({
    scenario_id: example.id,
    inputs: example.definition.example_inputs,
  });
  return `programrun in ${framework} on ${base}
Test API key: ${demo.testKey}

Your own route:  curl -s ${base}/health
Create a run:    curl -s ${base}/v1/program-runs -H "Authorization: Bearer ${demo.testKey}" \\
  -H "Idempotency-Key: $(node -e 'console.log(crypto.randomUUID())')" \\
  -H "Content-Type: application/json" -d '${body}'`;
}
