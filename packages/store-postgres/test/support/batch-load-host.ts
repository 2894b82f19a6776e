// A host that commits in batches (`createEngine({ batch })`) under its own load, for the
// batch crash suite: lanes of live wallet deliveries, each created and answered through
// `engine.createRun` and `engine.signal` (screening, release, transfer), so many runs'
// transitions are committed together, several in one statement. It never stops by itself:
// the suite kills it with SIGKILL. Prints its ready line once loading, as host.ts does.
// Environment: that of host.ts's store, and BATCH_LANES (default 16).
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, type Scope } from '@programrun/engine';
import { openHostStore } from './host-store.js';
import { RELEASE, walletAnswer, WALLET_LIVE_INPUTS } from './wallet-signals.js';

const environment = process.env;
const lanes = Number(environment.BATCH_LANES ?? 16);
const scope: Scope = { account: 'acct_batch_crash', environment: 'live' };
const [opened, scenarios] = await Promise.all([
  openHostStore(environment),
  loadCatalogue(fileURLToPath(new URL('../../../../scenarios/', import.meta.url))),
]);
const engine = createEngine({ store: opened.store, scenarios, batch: { maxWaitMs: 2 } });

async function lane(index: number): Promise<void> {
  for (let round = 0; ; round += 1) {
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_LIVE_INPUTS,
      idempotency_key: `${process.pid}-${index}-${round}`,
    });
    await engine.signal(scope, run.id, walletAnswer(run.id, 'screen_destination'));
    await engine.signal(scope, run.id, RELEASE);
    await engine.signal(scope, run.id, walletAnswer(run.id, 'transfer_to_wallet'));
  }
}

console.log(JSON.stringify({ ready: true, port: 0, pid: process.pid }));
await Promise.all(
  Array.from({ length: lanes }, (_, index) =>
    lane(index).catch((error: unknown) => {
      console.error('batch-load-host lane:', error);
      process.exit(1);
    }),
  ),
);
