// A transition on a SQL store is one write statement that commits by itself, after one read
// (the run with its pending timers and test clock) unless the run is a live one this host
// wrote last (then it is taken from the host's cache, and the write's compare-and-swap
// proves it current); a connector's claim is one statement that commits by itself, and its
// settle a transition.
// Counted below the store on every statement an engine sends for a whole wallet delivery.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, type Engine, type Scope } from '@programrun/engine';
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

/** Two hosts (two stores, each with its own cache) over one schema, and a live run A created. */
async function withTwoHosts(
  schema: string,
  work: (hosts: {
    hostA: Engine;
    hostB: Engine;
    scope: Scope;
    runId: string;
    database: SqlDatabase;
  }) => Promise<void>,
): Promise<void> {
  const database = await createPGliteDatabase();
  try {
    await migrate(database, { schema });
    const counted: SqlDatabase = {
      ...database,
      transaction: (inner, options) =>
        database.transaction(async (sql) => inner(await counting(sql)), options),
    };
    const hostA = createEngine({ store: createSqlStore(counted, `"${schema}"`), scenarios });
    const hostB = createEngine({ store: createSqlStore(counted, `"${schema}"`), scenarios });
    const scope: Scope = { account: `acct_${schema}`, environment: 'live' };
    const { run } = await hostA.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_LIVE_INPUTS,
    });
    await work({ hostA, hostB, scope, runId: run.id, database });
  } finally {
    await database.close();
  }
}

describe('a transition on a SQL store', () => {
  it.each(['live', 'test'] as const)(
    'is one write committing by itself, read first in test, for every signal of a %s run',
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
          expect(seen, `${signal.step} in ${environment}`).toEqual(
            environment === 'live' ? [['write']] : [['SELECT r.id,', 'write']],
          );
        }
        // This host wrote every version it read: the documents stayed on the server (and in
        // live, the run was not read at all: its test clock is no other host's to move).
        expect(documentsRead).toEqual(environment === 'live' ? [] : [false, false, false]);
        expect((await engine.getRun(scope, run.id)).status).toBe('completed');
      }),
  );

  it('reads a run whole once another host moved it on, and finishes it', () =>
    withTwoHosts('two_hosts', async ({ hostA, hostB, scope, runId }) => {
      documentsRead.length = 0;
      await hostB.signal(scope, runId, walletAnswer(runId, 'screen_destination'));
      const seen = await statementsOf(() => hostA.signal(scope, runId, RELEASE));
      // B had never seen the run; A took its cached run, which (behind B's write) still
      // awaited the screening and so refused the release: A did not answer that refusal but
      // read the run whole and applied the release to it.
      expect(seen).toEqual([[], ['SELECT r.id,', 'write']]);
      expect(documentsRead).toEqual([true, true]);
      const done = await hostB.signal(scope, runId, walletAnswer(runId, 'transfer_to_wallet'));
      expect(done.run.status).toBe('completed');
      expect(done.run).toEqual(await hostA.getRun(scope, runId));
    }));

  it("answers a repeat of another host's signal as a duplicate from a host whose cached run is behind", () =>
    withTwoHosts('stale_cache', async ({ hostA, hostB, scope, runId, database }) => {
      const screened = await hostB.signal(scope, runId, walletAnswer(runId, 'screen_destination'));
      expect(screened.applied).toBe(true);
      // A's cached run still awaits the screening, so it takes the answer: its write finds
      // the run moved on and writes nothing; read again, the answer is B's, recorded once.
      const seen = await statementsOf(async () => {
        const repeat = await hostA.signal(scope, runId, walletAnswer(runId, 'screen_destination'));
        expect(repeat.applied).toBe(false);
        expect(repeat.run).toEqual(screened.run);
      });
      expect(seen).toEqual([['write'], ['SELECT r.id,']]);
      const confirmed = await database.transaction((sql) =>
        sql.query<{ count: number }>(
          `SELECT count(*)::integer AS count FROM "stale_cache".lifecycle_records
           WHERE run_id = $1 AND record ->> 'type' = 'program_run.handoff.confirmed'`,
          [runId],
        ),
      );
      expect(confirmed.rows[0]?.count).toBe(1);
    }));

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
      // The runs are this host's own live runs: each settle takes its run from the cache.
      const settle = ['settle'];
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
