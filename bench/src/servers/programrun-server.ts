// The node:http adapter over the engine with the memory store; prints "ready <port>".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, createMemoryStore } from '@programrun/engine';
import { createApiKeyAuthenticator, createHandler } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';
import { loadCompiled } from '../scenario.js';
import { BENCH_KEY } from './bench-key.js';

const engine = createEngine({
  store: createMemoryStore(),
  scenarios: [await loadCompiled(process.env.SCENARIO ?? 'qr-merchant-settlement@v1')],
});
const handler = createHandler({
  engine,
  authenticate: createApiKeyAuthenticator([{ key: BENCH_KEY, account: 'acct_bench' }]),
});
const server = createServer(createNodeListener(handler));
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
// Exit cleanly on a signal so --cpu-prof can write its profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
