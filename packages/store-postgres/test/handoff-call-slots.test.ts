// A party's `concurrency` counts calls to the partner, not the engine's bookkeeping: a call
// leaves its slot once the partner answered, so the party's next call starts while the
// first answer is still being written, and still never two calls at once. Shown on
// PostgreSQL: another connection holds the first run's row, so the first settle waits.
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, type HandoffConnector, type Scope } from '@programrun/engine';
import { createTestPostgresStore, TEST_DATABASE_URL } from './support/test-database.js';
import { WALLET_LIVE_INPUTS } from './support/wallet-signals.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);

describe('call slots of a live party on PostgreSQL', () => {
  it('starts the next call while the previous answer is written, never two at once', async () => {
    const store = await createTestPostgresStore({ maxConnections: 4 });
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    try {
      let inFlight = 0;
      let most = 0;
      const called: string[] = [];
      let secondCalled!: () => void;
      const second = new Promise<void>((resolve) => (secondCalled = resolve));
      const screening: HandoffConnector = async (request) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        called.push(request.run_id);
        if (called.length === 2) secondCalled();
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return { outcome: 'confirmed', reference: `ref_${called.length}`, data: { risk: 'low' } };
      };
      const engine = createEngine({
        store,
        scenarios,
        connectors: { chain_analytics: { connector: screening, concurrency: 1 } },
      });
      const scope: Scope = { account: 'acct_slots', environment: 'live' };
      const runs = [];
      for (const key of ['first', 'second']) {
        const { run } = await engine.createRun(scope, {
          scenario_id: 'wallet-delivery@v1',
          inputs: WALLET_LIVE_INPUTS,
          idempotency_key: key,
        });
        runs.push(run);
      }
      // Another connection holds the first run's row: its settle waits for it.
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM ${store.schema}.runs WHERE id = $1 FOR UPDATE`, [
        runs[0]!.id,
      ]);
      const claims = await holder.query<{ id: string }>(
        `SELECT id FROM ${store.schema}.handoff_jobs ORDER BY next_attempt_at, id`,
      );
      expect(claims.rows).toHaveLength(2);

      const running = engine.runDueHandoffs('live');
      // The first answer cannot be written yet, and the second call goes out all the same.
      await second;
      expect(called).toEqual([runs[0]!.id, runs[1]!.id]);
      expect((await engine.getRun(scope, runs[0]!.id)).awaiting).toMatchObject({
        step: 'screen_destination',
      });
      await holder.query('COMMIT');

      expect(await running).toBe(2);
      expect(most).toBe(1);
      for (const run of runs) {
        expect((await engine.getRun(scope, run.id)).awaiting).toMatchObject({
          step: 'release_approval',
        });
      }
    } finally {
      await holder.end();
      await store.close();
    }
  });
});
