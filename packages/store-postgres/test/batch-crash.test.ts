// Batch commit under SIGKILL: a host committing many runs' transitions in one statement
// (`createEngine({ batch })`) is killed at random moments, several rounds, on PostgreSQL.
// Afterwards each run's every transition is wholly applied or wholly absent: the run's
// version and last sequence agree with its records, each record has its outbox event, the
// hash chain verifies, no handoff is requested or answered twice, and the run awaits
// exactly what its timers and jobs say.
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, type LifecycleRecord, type Scope } from '@programrun/engine';
import { durableStoreSetup } from './support/durable-store-setup.js';
import { historyProblems } from './support/history-invariants.js';
import { killAllHosts, startHost } from './support/host-process.js';
import { seededRandom } from './support/seeded-random.js';
import { TEST_DATABASE_URL } from './support/test-database.js';

const ROUNDS = 3;
const scope: Scope = { account: 'acct_batch_crash', environment: 'live' };
const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);

afterAll(() => killAllHosts());

/** Per run, what its row says and what was written beside it. */
interface RunRow {
  readonly id: string;
  readonly version: number;
  readonly last_sequence: number;
  readonly records: number;
  readonly top: number | null;
  readonly events: number;
  readonly chain_head: string | null;
  readonly last_hash: string | null;
}

describe('batch commit under SIGKILL (postgres)', () => {
  it(`applies each run's transition wholly or not at all through ${ROUNDS} kills`, async () => {
    const random = seededRandom();
    const setup = await durableStoreSetup('postgres');
    const schema = setup.environment.PROGRAMRUN_POSTGRES_SCHEMA!;
    try {
      const kills: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const host = await startHost(
          setup.environment,
          30_000,
          [],
          'test/support/batch-load-host.ts',
        );
        const delay = random.integer(400, 1_500);
        kills.push(delay);
        await new Promise((resolve) => setTimeout(resolve, delay));
        await host.crash();
        expect(host.errors(), `seed ${random.seed}`).toBe('');
      }

      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      let rows: RunRow[];
      try {
        ({ rows } = await client.query<RunRow>(`
          SELECT r.id, r.version, r.last_sequence,
            (SELECT count(*)::int FROM "${schema}".lifecycle_records l WHERE l.run_id = r.id) AS records,
            (SELECT max(sequence) FROM "${schema}".lifecycle_records l WHERE l.run_id = r.id) AS top,
            (SELECT count(*)::int FROM "${schema}".webhook_events e WHERE e.run_id = r.id) AS events,
            r.record -> 'evidence' ->> 'chain_head' AS chain_head,
            (SELECT l.record ->> 'hash' FROM "${schema}".lifecycle_records l
              WHERE l.run_id = r.id ORDER BY l.sequence DESC LIMIT 1) AS last_hash
          FROM "${schema}".runs r`));
      } finally {
        await client.end();
      }
      expect(rows.length, `seed ${random.seed}`).toBeGreaterThan(ROUNDS * 16);
      const torn = rows.filter(
        (row) =>
          row.records !== row.last_sequence ||
          row.top !== row.last_sequence ||
          row.events !== row.records ||
          row.chain_head !== row.last_hash,
      );
      expect(torn, `seed ${random.seed}`).toEqual([]);

      // Every run's history, as the engine reads it, holds together.
      const store = await setup.open();
      try {
        const engine = createEngine({ store, scenarios });
        const problems: string[] = [];
        const finished = { completed: 0, waiting: 0 };
        for (const { id } of rows) {
          const run = await engine.getRun(scope, id);
          const records: LifecycleRecord[] = await engine.listEvents(scope, id);
          problems.push(...historyProblems({ run, records }).map((problem) => `${id}: ${problem}`));
          // A run that waits has the timer of what it waits on, and a finished one none.
          const timers = await store.transaction((tx) => tx.pendingTimers(id));
          if (run.status === 'completed') {
            finished.completed += 1;
            if (timers.length > 0) problems.push(`${id}: completed with ${timers.length} timers`);
          } else {
            finished.waiting += 1;
            const step = run.awaiting?.step;
            if (!timers.some((timer) => timer.step === step))
              problems.push(`${id}: awaits ${step ?? 'nothing'} with no timer for it`);
          }
        }
        expect(problems, `seed ${random.seed}`).toEqual([]);
        console.info(
          `batch crash: kills after ${kills.join(', ')} ms; ${rows.length} runs ` +
            `(${finished.completed} completed, ${finished.waiting} in flight); seed ${random.seed}`,
        );
      } finally {
        await store.close();
      }
    } finally {
      await killAllHosts();
      await setup.dispose();
    }
  }, 120_000);
});
