import { assertAccountId } from '../accounts/account-id.js';
import type { EngineContext } from '../engine-context.js';
import type { Scope } from '../store/store-v1.js';
import { fireAccountTestTimers } from './fire-timers.js';
import { nextDue } from './next-due.js';

/** Moves accounts' test clocks, one advance at a time per account. */
export interface TestClocks {
  /**
   * Moves one account's test clock forward, firing each of its timers and settling each of
   * its sandbox jobs (simulated partners' answers) at its own due time on the way. Other
   * accounts' clocks, timers and jobs are untouched.
   */
  advance(
    account: string,
    seconds: number,
  ): Promise<{ readonly now: string; readonly fired: number }>;
  /** Moves one account's test clock to `target` (never backwards), firing due timers on the way. */
  advanceTo(
    account: string,
    target: Date,
  ): Promise<{ readonly now: string; readonly fired: number }>;
}

/**
 * The test clocks of an engine. Advances of one account are serialized (they would race to
 * move the same offset); different accounts advance in parallel.
 */
export function createTestClocks(context: EngineContext): TestClocks {
  const { transactions, clocks } = context;
  const queues = new Map<string, Promise<unknown>>();

  async function advanceNow(account: string, to: (start: Date) => Date) {
    const scope: Scope = { account, environment: 'test' };
    const start = await transactions.run(({ tx }) => clocks.now(tx, scope));
    const target = to(start);
    // The advance answers with every due timer fired, including those a scheduler (here or
    // on another host) is firing right now.
    let fired = await fireAccountTestTimers(context, account, true);
    let stuck: string | undefined;
    for (let round = 0; round < 100_000; round += 1) {
      const next = await transactions.run(({ tx }) =>
        nextDue(tx, { environment: 'test', account }),
      );
      // A timer or job still pending after a round held it is leased by a host that
      // stopped answering: its lease ends and the scheduler fires it then.
      if (!next || next.dueAt > target.toISOString() || next.key === stuck) break;
      await transactions.run(({ tx }) => clocks.moveTestClock(tx, account, new Date(next.dueAt)));
      fired += await fireAccountTestTimers(context, account, true);
      stuck = next.key;
    }
    const now = await transactions.run(({ tx }) => clocks.moveTestClock(tx, account, target));
    fired += await fireAccountTestTimers(context, account, true);
    return { now: now.toISOString(), fired };
  }

  /** One advance of an account at a time; accounts advance in parallel. */
  function queue(account: string, to: (start: Date) => Date) {
    const queued = (queues.get(account) ?? Promise.resolve()).then(() => advanceNow(account, to));
    const settled = queued.catch(() => undefined);
    queues.set(account, settled);
    void settled.then(() => {
      if (queues.get(account) === settled) queues.delete(account);
    });
    return queued;
  }

  return {
    advance(account, seconds) {
      assertAccountId(account);
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new RangeError('seconds must be a non-negative number');
      return queue(account, (start) => new Date(start.getTime() + Math.round(seconds * 1000)));
    },
    advanceTo(account, target) {
      assertAccountId(account);
      if (Number.isNaN(target.getTime())) throw new RangeError('target must be a valid time');
      // Never backwards: a target the clock already passed only fires what is due.
      return queue(account, (start) => (target > start ? target : start));
    },
  };
}
