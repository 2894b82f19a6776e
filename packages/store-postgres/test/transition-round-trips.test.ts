// A transition on a SQL store is two round trips: one read (the run with its pending timers
// and test clock) and one write statement that commits by itself; a connector's claim is
// one statement that commits by itself, and its settle a transition.
// Counted below the store on every statement an engine sends for a whole wallet delivery.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, type Scope } from '@programrun/engine';
import {
  createPGliteDatabase,
  createSqlStore,
  migrate,
  type QueryOptions,
  type SqlDatabase,
  type SqlExecutor,
} from '../src/index.js';
import { closingAfter, usePGliteSchemas } from './support/pglite-schemas.js';
import { RELEASE, walletAnswer, WALLET_LIVE_INPUTS } from './support/wallet-signals.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);

/** The statements of each transaction, as their first words. */
const transactions: string[][] = [];
/** Whether each transition's read brought the run's documents (its snapshot) back. */
const documentsRead: boolean[] = [];
const counting = (sql: SqlExecutor): Promise<SqlExecutor> => {
  const statements: string[] = [];
  transactions.push(statements);
  return Promise.resolve({
    async query<Row>(text: string, params?: readonly unknown[], options?: QueryOptions) {
      const begun = sql.begun();
      const result = await sql.query<Row>(text, params, options);
      // A transaction sends BEGIN before the first statement that needs one (COMMIT with it).
      if (!begun && sql.begun()) statements.push('BEGIN');
      // A transition's write is named for what it does: a settle fences a handoff job.
      const words = text.trim().split(/\s+/).slice(0, 2).join(' ');
      statements.push(
        words === 'WITH w' ? (text.includes('settled_job AS') ? 'settle' : 'write') : words,
      );
      if (/pending_timers/.test(text))
        documentsRead.push((result.rows[0] as { snapshot: unknown } | undefined)?.snapshot != null);
      return result;
    },
    script: (text) => sql.script(text),
    begun: () => sql.begun(),
  });
};
const freshStore = usePGliteSchemas('round_trips', counting);

/** Runs `work` on a store of a fresh schema, closed after. */
const withFreshStore = closingAfter(freshStore);

/** The statements of the transactions `work` ran. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[][]> {
  transactions.length = 0;
  await work();
  return transactions.map((statements) => [...statements]);
}

describe('a transition on a SQL store', () => {
  it.each(['live', 'test'] as const)(
    'is one read and one write committing by itself for every signal of a %s run',
    (environment) =>
      withFreshStore(async (store) => {
        const engine = createEngine({ store, scenarios });
        const scope: Scope = { account: 'acct_round_trips', environment };
        const { run } = await engine.createRun(scope, {
          scenario_id: 'wallet-delivery@v1',
          inputs: WALLET_LIVE_INPUTS,
        });
        const signals = [
          walletAnswer(run.id, 'screen_destination'),
          RELEASE,
          walletAnswer(run.id, 'transfer_to_wallet'),
        ];
        documentsRead.length = 0;
        for (const signal of signals) {
          const seen = await statementsOf(() => engine.signal(scope, run.id, signal));
          expect(seen, `${signal.step} in ${environment}`).toEqual([['SELECT r.id,', 'write']]);
        }
        // This host wrote every version it read: the documents stayed on the server.
        expect(documentsRead).toEqual([false, false, false]);
        expect((await engine.getRun(scope, run.id)).status).toBe('completed');
      }),
  );

  it('reads a run whole once another host moved it on, and finishes it', async () => {
    // Two stores (two hosts, each with its own cache) over the same tables.
    const database = await createPGliteDatabase();
    try {
      await migrate(database, { schema: 'two_hosts' });
      const counted: SqlDatabase = {
        ...database,
        transaction: (work) => database.transaction(async (sql) => work(await counting(sql))),
      };
      const hostA = createEngine({ store: createSqlStore(counted, '"two_hosts"'), scenarios });
      const hostB = createEngine({ store: createSqlStore(counted, '"two_hosts"'), scenarios });
      const scope: Scope = { account: 'acct_two_hosts', environment: 'live' };
      const { run } = await hostA.createRun(scope, {
        scenario_id: 'wallet-delivery@v1',
        inputs: WALLET_LIVE_INPUTS,
      });
      documentsRead.length = 0;
      await hostB.signal(scope, run.id, walletAnswer(run.id, 'screen_destination'));
      await hostA.signal(scope, run.id, RELEASE);
      // B had never seen the run; A's cached version was behind B's write: both read it whole.
      expect(documentsRead).toEqual([true, true]);
      const done = await hostB.signal(scope, run.id, walletAnswer(run.id, 'transfer_to_wallet'));
      expect(done.run.status).toBe('completed');
      expect(done.run).toEqual(await hostA.getRun(scope, run.id));
    } finally {
      await database.close();
    }
  });

  it("claims a party's jobs in one statement and settles each answer in one read and one write", () =>
    withFreshStore(async (store) => {
      const engine = createEngine({
        store,
        scenarios,
        connectors: {
          chain_analytics: {
            connector: () =>
              Promise.resolve({
                outcome: 'confirmed',
                reference: 'ref_screen',
                data: { risk: 'low' },
              }),
            concurrency: 1,
          },
        },
      });
      const scope: Scope = { account: 'acct_connector', environment: 'live' };
      const runs = [];
      for (let index = 0; index < 2; index += 1) {
        const { run } = await engine.createRun(scope, {
          scenario_id: 'wallet-delivery@v1',
          inputs: WALLET_LIVE_INPUTS,
        });
        runs.push(run);
      }
      const seen = await statementsOf(() => engine.runDueHandoffs('live'));
      // A claim (the party's advisory lock and the fair claim, in one function) commits by
      // itself; each settle writes the run's transition with the job's row. The next job is
      // claimed once the first call is over, while its answer is being written, so claims
      // and settles interleave; no transaction sends BEGIN.
      const claim = ['SELECT id,'];
      const settle = ['SELECT r.id,', 'settle'];
      expect(seen.filter((statements) => statements.includes('settle'))).toEqual([settle, settle]);
      const claims = seen.filter((statements) => !statements.includes('settle'));
      expect(claims.length).toBeGreaterThanOrEqual(2);
      for (const statements of claims) expect(statements).toEqual(claim);
      for (const run of runs) {
        expect((await engine.getRun(scope, run.id)).awaiting).toMatchObject({ kind: 'approval' });
        const jobs = await store.transaction((tx) => tx.handoffJobsOfRun(run.id));
        expect(jobs.map((job) => [job.step, job.status, job.calls])).toEqual([
          ['screen_destination', 'closed', 1],
        ]);
      }
    }));

  it("settles a simulated partner's answer as one read and one write committing by itself", () =>
    withFreshStore(async (store) => {
      const engine = createEngine({ store, scenarios });
      const scope: Scope = { account: 'acct_sandbox', environment: 'test' };
      const { run } = await engine.createRun(scope, {
        scenario_id: 'wallet-delivery@v1',
        inputs: WALLET_LIVE_INPUTS,
      });
      const seen = await statementsOf(() => engine.advanceTestClock(scope.account, 3_600));
      // The job's settle: the run's transition and the job's row, fenced, in one write.
      const settles = seen.filter((statements) => statements.includes('settle'));
      expect(settles).toEqual([['SELECT r.id,', 'settle']]);
      expect((await engine.getRun(scope, run.id)).awaiting).toMatchObject({ kind: 'approval' });
    }));

  it('creates a run with one write (and, in test, one read of the account clock)', () =>
    withFreshStore(async (store) => {
      const engine = createEngine({ store, scenarios });
      for (const environment of ['live', 'test'] as const) {
        const seen = await statementsOf(() =>
          engine.createRun(
            { account: 'acct_round_trips', environment },
            { scenario_id: 'wallet-delivery@v1', inputs: WALLET_LIVE_INPUTS },
          ),
        );
        expect(seen).toEqual([environment === 'live' ? ['write'] : ['SELECT account,', 'write']]);
      }
    }));
});
