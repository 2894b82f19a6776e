// A process that upgrades an account's runs of bank-payout@v1 to v2 (`engine.upgradeRuns`,
// what `programrun upgrade apply` runs) on the store its environment names
// (PROGRAMRUN_STORE and its variables, as a test host's), printing `<outcome> <run id>` as each
// run is done with (a moved run once its transaction committed), and exits 0 when done: the
// kill-and-upgrade test kills it mid-way.
import { createEngine } from '@programrun/engine';
import { bankPayoutUpgrade } from './bank-payout-upgrade.js';
import { openHostStore } from './host-store.js';

const { v1, v2, report } = bankPayoutUpgrade();
const opened = await openHostStore(process.env);
const engine = createEngine({ store: opened.store, scenarios: [v1, v2] });
const result = await engine.upgradeRuns(
  { account: process.env.PROGRAMRUN_ACCOUNT!, environment: 'test' },
  {
    report,
    actor: 'ops:upgrader',
    onRun: (run) => process.stdout.write(`${run.outcome} ${run.run_id}\n`),
  },
);
process.stdout.write(`${JSON.stringify(result.counts)}\n`);
await opened.close();
