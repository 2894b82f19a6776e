// Kill-and-upgrade on PGlite and PostgreSQL: runs of bank-payout@v1 wait at each kind of
// step; the process upgrading them to v2 is killed with SIGKILL mid-way, twice, then run
// again to the end. Every run ends on exactly one version (v2, or v1 for the runs whose
// payout is with the bank), none was upgraded twice, no handoff was requested twice, every
// chain verifies.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyChain } from '@programrun/evidence';
import { createEngine, createVirtualClock, type Engine, type Scope } from '@programrun/engine';
import type { SqlStore } from '../src/index.js';
import { bankPayoutUpgrade } from './support/bank-payout-upgrade.js';
import { durableStoreSetup, type DurableStoreSetup } from './support/durable-store-setup.js';

const PACKAGE_DIRECTORY = fileURLToPath(new URL('../', import.meta.url));
const { v1, v2 } = bankPayoutUpgrade();
const scope: Scope = { account: 'acct_kill_upgrade', environment: 'test' };
const setups: DurableStoreSetup[] = [];
afterAll(async () => {
  for (const setup of setups) await setup.dispose();
});

/** Parks runs at the hold, the maker's submission, the release (one checker) and the payout. */
async function parkRuns(engine: Engine): Promise<{ all: string[]; atPayout: string[] }> {
  const create = async () =>
    (await engine.createRun(scope, { scenario_id: v1.id, inputs: v1.definition.example_inputs }))
      .run.id;
  const early: string[] = [];
  for (let index = 0; index < 30; index += 1) early.push(await create());
  await engine.advanceTestClock(scope.account, 3_600);
  const approve = (id: string, step: string, approver: string) =>
    engine.signal(scope, id, { kind: 'approval', step, decision: 'approve', approver });
  for (const id of early.slice(10)) {
    await approve(id, 'submit_instruction', 'ops:maker');
    await approve(id, 'release_approval', 'ops:checker-1');
  }
  const atPayout = early.slice(20);
  for (const id of atPayout) await approve(id, 'release_approval', 'ops:checker-2');
  const held: string[] = [];
  for (let index = 0; index < 70; index += 1) held.push(await create());
  return { all: [...early, ...held], atPayout };
}

/**
 * Starts the upgrading process on the store `setup` names; `upgraded()` counts the runs it
 * said it moved (each said once its transaction committed).
 */
function startUpgrade(setup: DurableStoreSetup) {
  const child = spawn(
    process.execPath,
    ['--conditions=@programrun/source', '--import', 'tsx', 'test/support/upgrade-apply-process.ts'],
    {
      cwd: PACKAGE_DIRECTORY,
      env: { ...process.env, ...setup.environment, PROGRAMRUN_ACCOUNT: scope.account },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: string | null; output: string }>(
    (resolve) => child.once('exit', (code, signal) => resolve({ code, signal, output })),
  );
  const upgraded = () => output.split('\n').filter((line) => line.startsWith('upgraded ')).length;
  return { child, ended, upgraded };
}

/** How many of the account's runs are on v2, read from the store (no process holds it). */
async function movedIn(setup: DurableStoreSetup): Promise<number> {
  const store = await setup.open();
  try {
    const engine = createEngine({ store, scenarios: [v1, v2] });
    let count = 0;
    for (let after: string | undefined; ;) {
      const page = await engine.listRuns(scope, {
        scenario_id: v2.id,
        limit: 100,
        ...(after === undefined ? {} : { starting_after: after }),
      });
      count += page.data.length;
      if (!page.has_more || page.data.length === 0) return count;
      after = page.data.at(-1)!.id;
    }
  } finally {
    await store.close();
  }
}

describe.each([{ kind: 'pglite' as const }, { kind: 'postgres' as const }])(
  'upgrade apply killed with SIGKILL mid-way ($kind)',
  ({ kind }) => {
    it('leaves every run on exactly one version, upgraded once, its handoffs requested once', async () => {
      const setup = await durableStoreSetup(kind);
      setups.push(setup);
      let store: SqlStore = await setup.open();
      const parker = createEngine({
        store,
        scenarios: [v1, v2],
        testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
      });
      const { all, atPayout } = await parkRuns(parker);
      await store.close();
      const movable = all.length - atPayout.length;

      // Killed once a few runs moved, then once about half did; then left to finish.
      for (const threshold of [5, Math.floor(movable / 2)]) {
        const { child, ended, upgraded } = startUpgrade(setup);
        for (let waited = 0; upgraded() < threshold; waited += 1) {
          if (child.exitCode !== null || waited > 12_000)
            throw new Error(`the upgrade was not caught mid-way:\n${(await ended).output}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        child.kill('SIGKILL');
        const { signal } = await ended;
        expect(signal).toBe('SIGKILL');
        const count = await movedIn(setup);
        expect(count, 'killed mid-way').toBeGreaterThanOrEqual(threshold);
        expect(count, 'killed mid-way').toBeLessThan(movable);
      }
      const last = startUpgrade(setup);
      const finished = await last.ended;
      expect(finished.code, finished.output).toBe(0);
      expect(await movedIn(setup)).toBe(movable);

      store = await setup.open();
      const engine = createEngine({ store, scenarios: [v1, v2] });
      try {
        for (const id of all) {
          const run = await engine.getRun(scope, id);
          const stays = atPayout.includes(id);
          expect(run.scenario_id, id).toBe(stays ? v1.id : v2.id);
          expect(run.upgrades?.length ?? 0, id).toBe(stays ? 0 : 1);
          const history = await engine.listEvents(scope, id, { limit: 1000 });
          expect(verifyChain(history, { expectedHead: run.evidence.chain_head }).ok, id).toBe(true);
          const upgraded = history.filter((record) => record.type === 'program_run.upgraded');
          expect(upgraded.length, id).toBe(stays ? 0 : 1);
          const requested = history
            .filter((record) => record.type === 'program_run.handoff.requested')
            .map((record) => `${record.step}#${JSON.stringify(record.data.attempt)}`);
          expect(new Set(requested).size, `${id} requested ${requested.join(', ')}`).toBe(
            requested.length,
          );
          const jobs = await store.transaction((tx) => tx.handoffJobsOfRun(id));
          const keys = jobs.map((job) => `${job.step}#${job.attempt}`);
          expect(new Set(keys).size, `${id} jobs ${keys.join(', ')}`).toBe(keys.length);
        }
      } finally {
        await store.close();
      }
      // PGlite parks and moves the runs in one process at a time: slower on a busy machine.
    }, 180_000);
  },
);
