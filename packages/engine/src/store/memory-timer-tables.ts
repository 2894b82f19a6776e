import { ascending, type MemoryState } from './memory-state.js';
import type {
  TestClockRow,
  TimerClaim,
  TimerOperations,
  TimerQuery,
  TimerRow,
} from './timer-spec.js';
import { StoreError } from './store-error.js';
import type { UndoLog } from './undo-log.js';

/** Timers and test clocks of the memory store. Settled timers are dropped. */
export function memoryTimerTables(state: MemoryState, undo: () => UndoLog): TimerOperations {
  const pending = (query: TimerQuery): TimerRow[] =>
    [...state.pendingByRun.values()]
      .flat()
      .filter(
        (timer) =>
          timer.environment === query.environment &&
          (query.account === undefined || timer.account === query.account),
      )
      .sort((a, b) => ascending(a.due_at, b.due_at) || ascending(a.id, b.id));

  return {
    scheduleTimers(timers: readonly TimerRow[]): Promise<void> {
      for (const timer of timers) {
        if (state.timers.has(timer.id))
          throw new StoreError('duplicate_key', `timer ${timer.id} exists`);
        undo().set(state.timers, timer.id, timer);
        if (timer.status === 'pending') {
          const waiting = state.pendingByRun.get(timer.run_id) ?? [];
          undo().set(state.pendingByRun, timer.run_id, [...waiting, timer]);
        }
      }
      return Promise.resolve();
    },

    pendingTimers(runId: string): Promise<TimerRow[]> {
      return Promise.resolve([...(state.pendingByRun.get(runId) ?? [])]);
    },

    settleTimers(ids: readonly string[]): Promise<void> {
      // Settled timers are never read again: drop them so a long-running process does not grow.
      for (const id of ids) {
        const timer = state.timers.get(id);
        if (!timer) continue;
        undo().delete(state.timers, id);
        if (state.timerLeases.has(id)) undo().delete(state.timerLeases, id);
        const remaining = (state.pendingByRun.get(timer.run_id) ?? []).filter(
          (item) => item.id !== id,
        );
        if (remaining.length > 0) undo().set(state.pendingByRun, timer.run_id, remaining);
        else undo().delete(state.pendingByRun, timer.run_id);
      }
      return Promise.resolve();
    },

    dueTimers(query: TimerQuery, now: string, limit: number): Promise<TimerRow[]> {
      return Promise.resolve(
        pending(query)
          .filter((timer) => timer.due_at <= now)
          .slice(0, limit),
      );
    },

    claimTimers(claim: TimerClaim): Promise<TimerRow[]> {
      const leases = state.timerLeases;
      const free = (timer: TimerRow): boolean => {
        const lease = leases.get(timer.id);
        return lease === undefined || lease <= claim.lease_now;
      };
      const claimed = pending(claim)
        .filter((timer) => timer.due_at <= claim.due_at && free(timer))
        .slice(0, claim.limit);
      for (const timer of claimed) undo().set(leases, timer.id, claim.lease_until);
      return Promise.resolve(claimed);
    },

    releaseTimerLeases(ids: readonly string[], leaseUntil: string): Promise<void> {
      for (const id of ids)
        if (state.timerLeases.get(id) === leaseUntil) undo().delete(state.timerLeases, id);
      return Promise.resolve();
    },

    nextTimer(query: TimerQuery): Promise<TimerRow | undefined> {
      return Promise.resolve(pending(query)[0]);
    },

    getTestClock(account: string): Promise<TestClockRow | undefined> {
      return Promise.resolve(state.testClocks.get(account));
    },

    putTestClock(clock: TestClockRow): Promise<void> {
      undo().set(state.testClocks, clock.account, clock);
      return Promise.resolve();
    },

    listTestClocks(): Promise<TestClockRow[]> {
      return Promise.resolve(
        [...state.testClocks.values()].sort((a, b) => ascending(a.account, b.account)),
      );
    },
  };
}
