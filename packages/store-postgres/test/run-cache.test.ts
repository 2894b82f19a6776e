// The run cache a transition may take a live run from with no read: what it keeps, for
// whom, and the pending timers it computes for a run after a write (a property against the
// set the timers table would hold).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredRun, TimerRow, TransitionWrite } from '@programrun/engine';
import { createRunCache } from '../src/tables/run-cache.js';
import { pendingTimersAfter } from '../src/tables/transition-tables.js';

const run = (id: string, environment: 'live' | 'test', version = 1): StoredRun =>
  ({ id, account: 'acct_cache', environment, version }) as unknown as StoredRun;

const timer = (id: string, due_at: string): TimerRow => ({
  id,
  run_id: 'prun_1',
  account: 'acct_cache',
  environment: 'live',
  kind: 'timeout',
  step: 'step',
  attempt: 1,
  due_at,
  payload: {},
  status: 'pending',
});

const live = { account: 'acct_cache', environment: 'live' } as const;

describe('the run cache', () => {
  it('gives a transition a live run with its timers, never a test run or another scope', () => {
    const cache = createRunCache();
    const timers = [timer('tmr_1', '2026-01-01T00:00:00.000Z')];
    cache.remember([
      { run: run('prun_live', 'live'), pendingTimers: timers },
      { run: run('prun_test', 'test'), pendingTimers: [] },
      { run: run('prun_unknown_timers', 'live') },
    ]);
    expect(cache.transition(live, 'prun_live')).toEqual({
      run: run('prun_live', 'live'),
      pendingTimers: timers,
      testClock: undefined,
      cached: true,
    });
    expect(cache.transition({ ...live, environment: 'test' }, 'prun_test')).toBeUndefined();
    expect(cache.transition(live, 'prun_unknown_timers')).toBeUndefined();
    expect(cache.transition({ ...live, account: 'acct_other' }, 'prun_live')).toBeUndefined();
    // The documents of any run it keeps still spare a read its snapshot.
    expect(cache.get({ ...live, environment: 'test' }, 'prun_test')?.id).toBe('prun_test');
    cache.forget(['prun_live']);
    expect(cache.transition(live, 'prun_live')).toBeUndefined();
  });

  it('hands out copies of the timer list and keeps the most recently used runs', () => {
    const cache = createRunCache(2);
    cache.remember([{ run: run('prun_a', 'live'), pendingTimers: [] }]);
    cache.remember([{ run: run('prun_b', 'live'), pendingTimers: [] }]);
    const taken = cache.transition(live, 'prun_a')!;
    (taken.pendingTimers as TimerRow[]).push(timer('tmr_x', '2026-01-01T00:00:00.000Z'));
    cache.remember([{ run: run('prun_c', 'live'), pendingTimers: [] }]);
    // prun_a was used after prun_b: prun_b went out first.
    expect(cache.transition(live, 'prun_b')).toBeUndefined();
    expect(cache.transition(live, 'prun_a')?.pendingTimers).toEqual([]);
  });
});

describe('pendingTimersAfter', () => {
  const write = (parts: Partial<TransitionWrite>): TransitionWrite =>
    ({
      expectedVersion: 1,
      scheduleTimers: [],
      cancelTimers: [],
      firedTimer: null,
      ...parts,
    }) as TransitionWrite;

  it('is unknown for a run not read before, and the scheduled timers of a new run', () => {
    const scheduled = [
      timer('tmr_b', '2026-01-02T00:00:00.000Z'),
      timer('tmr_a', '2026-01-01T00:00:00.000Z'),
    ];
    expect(pendingTimersAfter(write({ scheduleTimers: scheduled }), undefined)).toBeUndefined();
    expect(
      pendingTimersAfter(write({ expectedVersion: null, scheduleTimers: scheduled }), undefined),
    ).toEqual([scheduled[1], scheduled[0]]);
  });

  it('property: the timers a read would find after the write, in due order', () => {
    const due = fc.integer({ min: 0, max: 5 }).map((day) => `2026-01-0${day + 1}T00:00:00.000Z`);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 20 }), due), {
          selector: ([id]) => id,
          maxLength: 8,
        }),
        fc.uniqueArray(fc.tuple(fc.integer({ min: 21, max: 40 }), due), {
          selector: ([id]) => id,
          maxLength: 4,
        }),
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 6 }),
        fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
        (before, scheduled, cancelled, fired) => {
          const name = (id: number) => `tmr_${String(id).padStart(2, '0')}`;
          const table = new Map(before.map(([id, at]) => [name(id), timer(name(id), at)]));
          const beforeRows = [...table.values()];
          const next = write({
            scheduleTimers: scheduled.map(([id, at]) => timer(name(id), at)),
            cancelTimers: cancelled.map(name),
            firedTimer: fired === null ? null : name(fired),
          });
          // What the write statement does to the table: deletes, then inserts.
          for (const id of [...next.cancelTimers, ...(fired === null ? [] : [name(fired)])])
            table.delete(id);
          for (const row of next.scheduleTimers) table.set(row.id, row);
          const expected = [...table.values()].sort((a, b) =>
            a.due_at === b.due_at ? a.id.localeCompare(b.id) : a.due_at.localeCompare(b.due_at),
          );
          expect(pendingTimersAfter(next, beforeRows)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
