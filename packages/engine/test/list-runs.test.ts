// engine.listRuns with the filters the run console needs, on runs the engine drove: the
// current stage, the kind of step awaited, and exact search by run id, session id,
// creating Idempotency-Key or source path.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import { type Engine, type RunQuery, type Scope } from '../src/index.js';
import { memoryEngine } from './memory-engine.js';
import { catalogueScenarios, WALLET_INPUTS } from './scenarios.js';

const scope: Scope = { account: 'acct_demo', environment: 'test' };

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

/** Three wallet runs: the oldest screened (waiting for its release approval), two in intake. */
async function threeRuns(): Promise<{ engine: Engine; ids: string[] }> {
  const engine = memoryEngine(scenarios, 'list-runs');
  const create = async (n: number) =>
    (
      await engine.createRun(scope, {
        scenario_id: 'wallet-delivery@v1',
        inputs: WALLET_INPUTS,
        session_id: `sess_${n}`,
        source_path: `/shop/${n}`,
        idempotency_key: `order-${n}`,
      })
    ).run.id;
  const first = await create(1);
  // The simulated screening answers after 20 s: the first run moves to its approval.
  await engine.advanceTestClock(scope.account, 20);
  const ids = [first, await create(2)];
  await engine.advanceTestClock(scope.account, 1);
  ids.push(await create(3));
  return { engine, ids };
}

const listed = async (engine: Engine, query: Partial<RunQuery>) =>
  (await engine.listRuns(scope, query)).data.map((run) => run.id);

describe('engine.listRuns filters', () => {
  it('lists runs by stage and awaited kind, and finds them by any of their four names', async () => {
    const { engine, ids } = await threeRuns();
    const [first, second, third] = ids as [string, string, string];
    expect(await listed(engine, { stage: 'release' })).toEqual([first]);
    expect(await listed(engine, { awaiting: 'approval' })).toEqual([first]);
    expect(await listed(engine, { stage: 'intake', awaiting: 'handoff' })).toEqual([third, second]);
    expect(await listed(engine, { awaiting: 'timer' })).toEqual([]);
    for (const q of [second, 'sess_2', 'order-2', '/shop/2'])
      expect(await listed(engine, { q }), q).toEqual([second]);
    expect(await listed(engine, { q: 'sess_2', stage: 'release' })).toEqual([]);
    expect(await listed(engine, { stage: 'intake', limit: 1 })).toEqual([third]);
    expect(await listed(engine, { stage: 'intake', limit: 1, starting_after: third })).toEqual([
      second,
    ]);
    expect(await listed(engine, { stage: 'intake', starting_after: first })).toEqual([]);
  });
});
