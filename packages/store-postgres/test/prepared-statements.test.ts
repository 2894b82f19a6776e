// The statements of every transition are named prepared statements on PostgreSQL, planned
// once per connection; `preparedStatements: false` (for a pooler that cannot keep them)
// sends them unnamed and prepares nothing. Both run the same transitions.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine } from '@programrun/engine';
import { createPgDatabase, createSqlStore, migrate, quoteSchema } from '../src/index.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './support/test-database.js';
import { walletAnswer, WALLET_LIVE_INPUTS } from './support/wallet-signals.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
const scope = { account: 'acct_prepared', environment: 'live' } as const;
const schemas: string[] = [];
afterEach(async () => {
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});

/** Runs a wallet delivery to its release approval and lists the connection's prepared statements. */
async function preparedAfterTransitions(preparedStatements: boolean): Promise<string[]> {
  const schema = freshSchema();
  schemas.push(schema);
  // One connection, so the session read below is the connection the transitions used.
  const database = createPgDatabase({
    connectionString: TEST_DATABASE_URL,
    maxConnections: 1,
    preparedStatements,
  });
  try {
    await migrate(database, { schema });
    // Two hosts on the one connection: B never wrote the runs A creates, so it reads them
    // (a host takes a live run it wrote last from its cache instead).
    const hostA = createEngine({ store: createSqlStore(database, quoteSchema(schema)), scenarios });
    const hostB = createEngine({ store: createSqlStore(database, quoteSchema(schema)), scenarios });
    for (let index = 0; index < 2; index += 1) {
      const { run } = await hostA.createRun(scope, {
        scenario_id: 'wallet-delivery@v1',
        inputs: WALLET_LIVE_INPUTS,
      });
      const answered = await hostB.signal(
        scope,
        run.id,
        walletAnswer(run.id, 'screen_destination'),
      );
      expect(answered.run.awaiting?.step).toBe('release_approval');
    }
    const { rows } = await database.session((sql) =>
      sql.query<{ name: string; statement: string }>(
        'SELECT name, statement FROM pg_prepared_statements ORDER BY name',
      ),
    );
    return rows.map((row) => `${row.name}: ${row.statement.trim().split(/\s+/)[0]!}`);
  } finally {
    await database.close();
  }
}

describe('prepared statements on PostgreSQL', () => {
  it('prepares the read and the write of a transition once per connection', async () => {
    const prepared = await preparedAfterTransitions(true);
    expect(prepared.every((entry) => /^programrun_[0-9a-f]{24}: /.test(entry))).toBe(true);
    // The create's write, the signal's read and its write: prepared once, reused by the second run.
    expect(prepared.filter((entry) => entry.endsWith(': WITH'))).toHaveLength(2);
    expect(prepared.filter((entry) => entry.endsWith(': SELECT')).length).toBeGreaterThanOrEqual(1);
  });

  it('prepares nothing with preparedStatements: false', async () => {
    expect(await preparedAfterTransitions(false)).toEqual([]);
  });
});
