// The raw store transaction of a create's shape, in its own process over its own store
// (STORE=pglite with DATA_DIR, or STORE=postgres with DATABASE_URL, SCHEMA, POOL). Forked
// by src/store-postgres.ts: sends { ready: true }, then answers each { seconds, concurrency }
// with a DriveResult; one transaction per create: Idempotency-Key lookup, run lookup by
// key, insert run, append records, outbox events, timers, completed Idempotency-Key record.
import { loadCompiled } from '../scenario.js';
import { captureCreate } from '../store/create-template.js';
import { freshCopies, replay } from '../store/fresh-copies.js';
import { drive } from '../store/drive.js';
import { openBenchStore } from '../store/open-bench-store.js';

const captured = await captureCreate(
  await loadCompiled(process.env.SCENARIO ?? 'wallet-delivery@v1'),
);
const next = freshCopies(captured, captured.calls);
const store = await openBenchStore(process.env);

process.on('message', (message: { seconds: number; concurrency: number }) => {
  void drive(message.seconds, message.concurrency, () =>
    store.transaction((tx) => replay(tx, next())),
  ).then((result) => process.send?.(result));
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void store.close().finally(() => process.exit(0)));
}
process.on('disconnect', () => void store.close().finally(() => process.exit(0)));
process.send?.({ ready: true });
