// A process that upgrades an account's runs of bank-payout@v1 to v2 (`engine.upgradeRuns`,
// what `programrun upgrade apply` runs) on the PostgreSQL store at DATABASE_URL, schema
// PROGRAMRUN_SCHEMA, and exits 0 when done: the kill-and-upgrade test kills it mid-way.
import { createEngine } from '@programrun/engine';
import { createPostgresStore } from '../../src/index.js';
import { bankPayoutUpgrade } from './bank-payout-upgrade.js';

const { v1, v2, report } = bankPayoutUpgrade();
const store = await createPostgresStore({
  connectionString: process.env.DATABASE_URL!,
  schema: process.env.PROGRAMRUN_SCHEMA!,
  migrate: false,
});
const engine = createEngine({ store, scenarios: [v1, v2] });
const result = await engine.upgradeRuns(
  { account: process.env.PROGRAMRUN_ACCOUNT!, environment: 'test' },
  { report, actor: 'ops:upgrader' },
);
process.stdout.write(`${JSON.stringify(result.counts)}\n`);
await store.close();
