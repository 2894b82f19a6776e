// One server of the telemetry benchmark: node:http + createHandler over the engine on the
// memory store, with TELEMETRY=off|api|sdk (see ../telemetry-sdk.ts). Prints "ready <port>".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccounts, createEngine, createMemoryStore } from '@programrun/engine';
import { createHandler } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';
import { loadCompiled } from '../scenario.js';
import { registerSdk, type TelemetrySetting } from '../telemetry-sdk.js';
import { BENCH_KEY } from './bench-key.js';

const setting = (process.env.TELEMETRY ?? 'api') as TelemetrySetting;
const sdk = setting === 'sdk' ? registerSdk() : undefined;
const telemetry = setting === 'off' ? { telemetry: false as const } : {};
const store = createMemoryStore();
const engine = createEngine({
  store,
  scenarios: [await loadCompiled(process.env.SCENARIO ?? 'wallet-delivery@v1')],
  ...telemetry,
});
const accounts = createAccounts({ store });
await accounts.apiKeys.create({ account: 'acct_bench', environment: 'test', secret: BENCH_KEY });
const server = createServer(
  createNodeListener(createHandler({ engine, accounts, rateLimit: false, ...telemetry })),
);
server.keepAliveTimeout = 30_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
// On SIGTERM: prints how many spans the SDK exported ("spans <n>"), then exits.
process.once('SIGTERM', () => {
  void (sdk?.spans() ?? Promise.resolve(0)).then((spans) => {
    console.log(`spans ${spans}`);
    process.exit(0);
  });
});
console.log(`ready ${(server.address() as AddressInfo).port}`);
