// A programrun host over a durable store: the node:http adapter over the engine with
// STORE=pglite (DATA_DIR) or STORE=postgres (DATABASE_URL, SCHEMA, POOL), the bench key,
// no rate limit, on 127.0.0.1. Prints "ready <port>". Started by src/store-postgres.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccounts, createEngine } from '@programrun/engine';
import { createHandler } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';
import { loadCompiled } from '../scenario.js';
import { openBenchStore } from '../store/open-bench-store.js';
import { BENCH_KEY } from './bench-key.js';

const store = await openBenchStore(process.env);
const engine = createEngine({
  store,
  scenarios: [await loadCompiled(process.env.SCENARIO ?? 'wallet-delivery@v1')],
});
const accounts = createAccounts({ store });
await accounts.apiKeys.create({ account: 'acct_bench', environment: 'test', secret: BENCH_KEY });
const server = createServer(
  createNodeListener(createHandler({ engine, accounts, rateLimit: false })),
);
server.keepAliveTimeout = 30_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(`ready ${(server.address() as AddressInfo).port}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    void store.close().finally(() => process.exit(0));
  });
}
