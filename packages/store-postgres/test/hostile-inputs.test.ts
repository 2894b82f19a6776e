// Hostile values in every string and number position of every route (the suite of
// @programrun/http, test/hostile-inputs.ts) on PGlite and on PostgreSQL: never a 5xx,
// refused values answered 422 with a pointer, exactly as on the memory store.
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createAccounts,
  createEngine,
  createVirtualClock,
  generateApiKey,
  type StoreV1,
} from '@programrun/engine';
import { createKeySet, generateEd25519Jwk } from '@programrun/evidence';
import { createHandler } from '@programrun/http';
import { defineHostileInputSuite } from '../../http/test/hostile-inputs.js';
import { usePGliteSchemas } from './support/pglite-schemas.js';
import { createTestPostgresStore } from './support/test-database.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
// Random combinations on top of the full sweep of single values; a SQL store is slower.
const randomRunsPerRoute = Number(process.env.PROGRAMRUN_FUZZ_RUNS ?? 20);
const evidenceKeys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);

async function targetOn(store: StoreV1) {
  const engine = createEngine({
    store,
    scenarios,
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
    evidence: { keys: evidenceKeys },
  });
  const accounts = createAccounts({ store });
  const key = generateApiKey('test');
  await accounts.apiKeys.create({ account: 'acct_fuzz', environment: 'test', secret: key });
  const handler = createHandler({ engine, accounts, rateLimit: false });
  return { handler, key, close: () => store.close() };
}

const freshPGliteStore = usePGliteSchemas('hostile');
defineHostileInputSuite('pglite', async () => targetOn(await freshPGliteStore()), {
  randomRunsPerRoute,
});
defineHostileInputSuite(
  'postgres',
  async () => targetOn(await createTestPostgresStore({ maxConnections: 4 })),
  { randomRunsPerRoute },
);
