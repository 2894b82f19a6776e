import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  seededIds,
  type Engine,
  type Scope,
} from '../src/index.js';
import { catalogueScenarios, WALLET_INPUTS } from './scenarios.js';

const START = '2026-03-02T09:00:00.000Z';
const alice: Scope = { account: 'acct_alice', environment: 'test' };
const bob: Scope = { account: 'acct_bob', environment: 'test' };
const inputs = WALLET_INPUTS;

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

function newEngine(base = createVirtualClock(START)): Engine {
  return createEngine({
    store: createMemoryStore(),
    scenarios,
    testClock: base,
    ids: seededIds('test-clocks'),
  });
}

/** What a run went through: each record's type and time (ids differ between engines). */
async function historyOf(engine: Engine, scope: Scope, runId: string) {
  return (await engine.listEvents(scope, runId)).map((record) => [record.type, record.created]);
}

describe('per-account test clocks', () => {
  it('advancing one account fires only its own timers', async () => {
    const engine = newEngine();
    const a = await engine.createRun(alice, { scenario_id: 'wallet-delivery@v1', inputs });
    const b = await engine.createRun(bob, { scenario_id: 'wallet-delivery@v1', inputs });
    expect(a.run.awaiting?.kind).toBe('handoff');
    const bobDue = await engine.nextTimerDue(bob);

    const advanced = await engine.advanceTestClock(alice.account, 3_600);
    expect(advanced.now).toBe('2026-03-02T10:00:00.000Z');
    expect(advanced.fired).toBeGreaterThan(0);
    expect((await engine.getRun(alice, a.run.id)).awaiting?.step).not.toBe(a.run.awaiting?.step);

    // Bob's clock and run did not move.
    expect((await engine.now(bob)).toISOString()).toBe(START);
    expect(await engine.getRun(bob, b.run.id)).toEqual(b.run);
    expect(await engine.nextTimerDue(bob)).toBe(bobDue);
  });

  it('the background scheduler fires what is due on each account’s own clock', async () => {
    const base = createVirtualClock(START);
    const engine = newEngine(base);
    const a = await engine.createRun(alice, { scenario_id: 'wallet-delivery@v1', inputs });
    const b = await engine.createRun(bob, { scenario_id: 'wallet-delivery@v1', inputs });
    const due = await engine.nextTimerDue(alice);
    // Alice jumps a day ahead: her next timers are due on her clock only.
    await engine.advanceTestClock(alice.account, 24 * 3600);
    const aliceAfter = await engine.getRun(alice, a.run.id);
    expect(await engine.runDueTimers('test')).toBe(0);
    expect(await engine.getRun(bob, b.run.id)).toEqual(b.run);
    // When real (base) time reaches Bob's timer, the scheduler fires it for Bob.
    base.advanceTo(new Date(due!));
    expect(await engine.runDueTimers('test')).toBeGreaterThan(0);
    expect((await engine.getRun(bob, b.run.id)).updated_at).toBe(due);
    expect(await engine.getRun(alice, a.run.id)).toEqual(aliceAfter);
  });

  it('gives every account the history it would have alone, whatever others do with their clocks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            who: fc.constantFrom('alice', 'bob'),
            seconds: fc.integer({ min: 1, max: 4 * 3600 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (advances) => {
          const shared = newEngine();
          const scopes = { alice, bob };
          const runs = {
            alice: (await shared.createRun(alice, { scenario_id: 'wallet-delivery@v1', inputs }))
              .run.id,
            bob: (await shared.createRun(bob, { scenario_id: 'wallet-delivery@v1', inputs })).run
              .id,
          };
          for (const { who, seconds } of advances) {
            await shared.advanceTestClock(scopes[who].account, seconds);
          }
          for (const who of ['alice', 'bob'] as const) {
            const alone = newEngine();
            const { run } = await alone.createRun(scopes[who], {
              scenario_id: 'wallet-delivery@v1',
              inputs,
            });
            for (const step of advances.filter((item) => item.who === who)) {
              await alone.advanceTestClock(scopes[who].account, step.seconds);
            }
            expect(await historyOf(shared, scopes[who], runs[who])).toEqual(
              await historyOf(alone, scopes[who], run.id),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('refuses to move a clock backwards or by a non-number', async () => {
    const engine = newEngine();
    expect(() => engine.advanceTestClock(alice.account, -1)).toThrow(RangeError);
    expect(() => engine.advanceTestClock(alice.account, Number.NaN)).toThrow(RangeError);
    expect((await engine.advanceTestClock(alice.account, 0)).now).toBe(START);
  });
});
