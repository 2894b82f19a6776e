import { describe, expect, it } from 'vitest';
import { liveCallCount } from '../../src/handoffs/live-call-count.js';

describe("a host's live calls", () => {
  it('names a job ended from its call ending until its result is written, for the whole host', () => {
    const host = new Set<string>();
    const worker = liveCallCount(host);
    const other = liveCallCount(host);
    const first = worker.started('bank', 'hjob_1');
    const second = other.started('bank', 'hjob_2');
    expect(worker.inFlight('bank')).toBe(1);
    expect([...host]).toEqual([]);

    first.ended();
    second.ended();
    expect(worker.inFlight('bank')).toBe(0);
    expect(worker.ended('bank')).toEqual(['hjob_1']);
    expect([...host].sort()).toEqual(['hjob_1', 'hjob_2']);

    first.settled();
    expect(worker.ended('bank')).toEqual([]);
    expect([...host]).toEqual(['hjob_2']);
    second.settled();
    expect([...host]).toEqual([]);
  });

  it('never names a call settled without ending (a stop, a failed write)', () => {
    const host = new Set<string>();
    const calls = liveCallCount(host);
    const call = calls.started('bank', 'hjob_1');
    call.settled();
    call.ended();
    expect(calls.inFlight()).toBe(0);
    expect([...host]).toEqual([]);
  });
});
