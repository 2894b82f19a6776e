import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createMemoryStore,
  createVirtualClock,
  type Engine,
  type RunRecord,
  type Scope,
} from '../src/index.js';
import { memoryEngine, TEST_START } from './memory-engine.js';
import { expectEngineError } from './expect-engine-error.js';
import { catalogueScenarios, WALLET_INPUTS } from './scenarios.js';

const test: Scope = { account: 'acct_watch', environment: 'test' };
const live: Scope = { account: 'acct_watch', environment: 'live' };
const other: Scope = { account: 'acct_other', environment: 'test' };

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

const newEngine = (): Engine =>
  memoryEngine(scenarios, 'watch-run', { clock: createVirtualClock(TEST_START) });

/**
 * Watches a run: each call reads the run as the listener sees it, so a call made before
 * the commit would read the old state.
 */
function watch(engine: Engine, scope: Scope, runId: string) {
  const seen: Promise<RunRecord>[] = [];
  const stop = engine.watchRun(scope, runId, () => seen.push(engine.getRun(scope, runId)));
  return { stop, seen: () => Promise.all(seen) };
}

describe('engine.watchRun', () => {
  it('tells the watcher after each committed change, with the change readable', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
    });
    const watcher = watch(engine, test, run.id);
    const unrelated = await engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
    });
    expect(await watcher.seen()).toEqual([]);

    // The simulated partner answers: one commit of this run (and one of the unrelated run).
    await engine.advanceTestClock(test.account, 60);
    const afterAnswer = await watcher.seen();
    expect(afterAnswer.length).toBeGreaterThanOrEqual(1);
    expect(afterAnswer.at(-1)).toEqual(await engine.getRun(test, run.id));
    expect(afterAnswer.at(-1)!.awaiting?.step).toBe('release_approval');

    const before = afterAnswer.length;
    await engine.signal(test, run.id, {
      kind: 'approval',
      step: 'release_approval',
      decision: 'approve',
      approver: 'ops:ana',
    });
    const afterApproval = await watcher.seen();
    expect(afterApproval).toHaveLength(before + 1);
    expect(afterApproval.at(-1)!.updated_at).toBe((await engine.getRun(test, run.id)).updated_at);
    expect(afterApproval.at(-1)!.evidence.chain_head).not.toBe(
      afterAnswer.at(-1)!.evidence.chain_head,
    );

    // Signals to another run, and refused signals, tell nothing.
    await engine.signal(test, unrelated.run.id, { kind: 'cancel' }).catch(() => undefined);
    await expectEngineError(
      engine.signal(test, run.id, {
        kind: 'approval',
        step: 'nope',
        decision: 'approve',
        approver: 'ops:ana',
      }),
      'step_not_awaiting',
    );
    expect(await watcher.seen()).toHaveLength(before + 1);

    watcher.stop();
    await engine.signal(test, run.id, { kind: 'cancel' }).catch(() => undefined);
    expect(await watcher.seen()).toHaveLength(before + 1);
  });

  it('tells nothing for a unit of work that rolled back, and once for one that committed', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
    });
    await engine.advanceTestClock(test.account, 60);
    const watcher = watch(engine, test, run.id);
    const approve = {
      kind: 'approval',
      step: 'release_approval',
      decision: 'approve',
      approver: 'ops:ana',
    } as const;
    await expect(
      engine.unitOfWork(test, async (uow) => {
        await uow.signal(run.id, approve);
        throw new Error('the host changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    expect(await watcher.seen()).toEqual([]);
    await engine.unitOfWork(test, async (uow) => {
      await uow.signal(run.id, approve);
      // Not before the commit.
      expect(await watcher.seen()).toEqual([]);
    });
    expect(await watcher.seen()).toHaveLength(1);
  });

  it('tells a watcher who subscribed while a commit nobody watched was in flight', async () => {
    // The store holds each unit of work's end (its commit) while `hold` is set.
    const memory = createMemoryStore();
    let hold: { reached: () => void; released: Promise<void> } | undefined;
    const store = new Proxy(memory, {
      get(target, property, receiver): unknown {
        if (property !== 'transaction') return Reflect.get(target, property, receiver);
        const transaction: typeof memory.transaction = (work, options) =>
          target.transaction(async (tx) => {
            const result = await work(tx);
            if (hold) {
              hold.reached();
              await hold.released;
            }
            return result;
          }, options);
        return transaction;
      },
    });
    const engine = memoryEngine(scenarios, 'watch-run-race', {
      store,
      clock: createVirtualClock(TEST_START),
    });
    const { run } = await engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
    });
    await engine.advanceTestClock(test.account, 60);

    // The approval's transaction begins with no run watched, so it is not observed.
    let release!: () => void;
    const reached = new Promise<void>((resolve) => {
      hold = { reached: resolve, released: new Promise((done) => (release = done)) };
    });
    const approving = engine.signal(test, run.id, {
      kind: 'approval',
      step: 'release_approval',
      decision: 'approve',
      approver: 'ops:ana',
    });
    await reached;
    hold = undefined;
    // A stream opens meanwhile (its first read came before the commit) and subscribes.
    const watcher = watch(engine, test, run.id);
    release();
    await approving;

    const seen = await watcher.seen();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.awaiting?.step).not.toBe('release_approval');
    expect(seen[0]!.updated_at).toBe((await engine.getRun(test, run.id)).updated_at);
    watcher.stop();
  });

  it('keeps scopes apart: the same id in another scope is another run', async () => {
    const engine = newEngine();
    const { run } = await engine.createRun(test, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
    });
    const calls: string[] = [];
    engine.watchRun(other, run.id, () => calls.push('other account'));
    engine.watchRun(live, run.id, () => calls.push('live'));
    const own = engine.watchRun(test, run.id, () => calls.push('own'));
    const twice = engine.watchRun(test, run.id, () => calls.push('own again'));
    await engine.signal(test, run.id, { kind: 'cancel' }).catch(() => undefined);
    await engine.advanceTestClock(test.account, 60);
    expect(calls).toContain('own');
    expect(calls).not.toContain('other account');
    expect(calls).not.toContain('live');
    own();
    twice();
    calls.length = 0;
    await engine.advanceTestClock(test.account, 3600);
    expect(calls).toEqual([]);
  });

  it('tells of runs written outside transitions: suspended creation, cancel and activation', async () => {
    const engine = newEngine();
    const reserve = scenarios.find((scenario) => scenario.id === 'reserve-usd-cycle@v1')!;
    const create = () =>
      engine.createRun(live, {
        scenario_id: reserve.id,
        inputs: reserve.definition.example_inputs,
      });
    const held = (await create()).run;
    const toCancel = (await create()).run;
    expect(held.status).toBe('suspended');
    const heldWatcher = watch(engine, live, held.id);
    const cancelWatcher = watch(engine, live, toCancel.id);

    await engine.signal(live, toCancel.id, { kind: 'cancel' });
    expect((await cancelWatcher.seen()).map((run) => run.status)).toEqual(['cancelled']);

    await engine.activations.activate(live.account, {
      scenario: 'reserve-usd-cycle',
      reference: 'ISS-WATCH',
    });
    const seen = await heldWatcher.seen();
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.at(-1)!.status).not.toBe('suspended');
  });

  it('keeps calling the other watchers when one throws', async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const engine = newEngine();
      const { run } = await engine.createRun(test, {
        scenario_id: 'wallet-delivery@v1',
        inputs: WALLET_INPUTS,
      });
      const calls: string[] = [];
      engine.watchRun(test, run.id, () => {
        throw new Error('a bad watcher');
      });
      engine.watchRun(test, run.id, () => calls.push('good'));
      await engine.signal(test, run.id, { kind: 'cancel' }).catch(() => undefined);
      await engine.advanceTestClock(test.account, 60);
      expect(calls.length).toBeGreaterThan(0);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      console.error = original;
    }
  });
});
