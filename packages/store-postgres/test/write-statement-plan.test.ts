// The transition write statement finds its runs and the timers it settles by primary key: it
// tells the planner how many runs it writes and how many timers it deletes, so a table of a
// few hundred runs or pending timers (and any larger one) is never scanned whole on a
// transition, in the plan a prepared statement keeps (generic) or a custom one.
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, type Scope, type TransitionWrite } from '@programrun/engine';
import { createPostgresStore, type SqlStore } from '../src/index.js';
import { transitionWriteStatement } from '../src/tables/transition-write-statement.js';
import { nextVersionWrite } from './support/next-version-write.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './support/test-database.js';
import { WALLET_LIVE_INPUTS } from './support/wallet-signals.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
const scope: Scope = { account: 'acct_plan', environment: 'live' };
const schema = freshSchema();
const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
let store: SqlStore;
const ids: string[] = [];

beforeAll(async () => {
  store = await createPostgresStore({ pool, schema });
  const engine = createEngine({ store, scenarios });
  for (let index = 0; index < 400; index += 1) {
    const { run } = await engine.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_LIVE_INPUTS,
    });
    ids.push(run.id);
  }
  await pool.query(`ANALYZE ${schema}.runs`);
  await pool.query(`ANALYZE ${schema}.timers`);
}, 120_000);

afterAll(async () => {
  await store.close();
  await pool.end();
  await dropSchema(schema);
});

/** A write moving run `id` one version on, with nothing else in it. */
const moveOn = (id: string): Promise<TransitionWrite> => nextVersionWrite(store, scope, id);

/** Every node of a JSON plan, depth first. */
function nodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [plan, ...children.flatMap(nodes)];
}

async function planOf(text: string, params?: unknown[]): Promise<Record<string, unknown>[]> {
  const options = params === undefined ? 'FORMAT JSON, GENERIC_PLAN' : 'FORMAT JSON';
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(
    `EXPLAIN (${options}) ${text}`,
    params,
  );
  return nodes(rows[0]!['QUERY PLAN'][0].Plan);
}

describe('the transition write statement’s plan', () => {
  it.each([1, 3])('reads %i run(s) by primary key, never the whole runs table', async (count) => {
    const writes = await Promise.all(ids.slice(0, count).map(moveOn));
    const { text, params } = transitionWriteStatement(schema, writes);
    for (const plan of [await planOf(text, params), await planOf(text)]) {
      const onRuns = plan.filter((node) => node['Relation Name'] === 'runs');
      expect(onRuns.length).toBeGreaterThan(0);
      expect(onRuns.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    }
  });

  // A transition settles one timer, most often (the timeout of the step it leaves). Of a
  // batch's several, a small table may be scanned: the planner's fair choice, bounded.
  it.each([1, 2])(
    'deletes %i settled timer(s) by primary key, never the whole timers table',
    async (count) => {
      const writes = await Promise.all(
        ids.slice(10, 10 + count).map(async (id) => {
          const timers = await store.transaction((tx) => tx.pendingTimers(id));
          return { ...(await moveOn(id)), cancelTimers: timers.map((timer) => timer.id) };
        }),
      );
      expect(writes.every((write) => write.cancelTimers.length > 0)).toBe(true);
      const { text, params } = transitionWriteStatement(schema, writes);
      for (const plan of [await planOf(text, params), await planOf(text)]) {
        const onTimers = plan.filter((node) => node['Relation Name'] === 'timers');
        expect(onTimers.length).toBeGreaterThan(0);
        expect(onTimers.map((node) => node['Node Type'])).not.toContain('Seq Scan');
      }
    },
  );
});
