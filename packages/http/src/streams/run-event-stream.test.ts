import type { RunRecord } from '@programrun/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runEventStream } from './run-event-stream.js';
import { DEFAULT_STREAM_POLICY, type StreamPolicy } from './stream-policy.js';

/** Nothing happens on a timer unless a test asks for it. */
const QUIET: StreamPolicy = {
  ...DEFAULT_STREAM_POLICY,
  pollIntervalMs: 3_600_000,
  keepAliveMs: 3_600_000,
  maxDurationMs: 3_600_000,
};

type Status = RunRecord['status'];
const run = (updatedAt: string, status: Status = 'waiting', note = ''): RunRecord =>
  ({
    object: 'program_run',
    id: 'prun_1',
    status,
    updated_at: updatedAt,
    note,
  }) as unknown as RunRecord;

/** A stream over a run whose state a test sets, and that it tells of changes. */
function harness(first: RunRecord, policy: StreamPolicy = QUIET, stored: RunRecord = first) {
  let current = stored;
  let failing = false;
  let reads = 0;
  const listeners = new Set<() => void>();
  let released = 0;
  const abort = new AbortController();
  const opened = runEventStream(
    first,
    {
      read: () => {
        reads += 1;
        return failing ? Promise.reject(new Error('store down')) : Promise.resolve(current);
      },
      watch: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    { policy, release: () => (released += 1), signal: abort.signal },
  );
  const reader = opened.stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  // A read that outlived a drain is the next drain's first.
  let pending: ReturnType<ReadableStreamDefaultReader<string>['read']> | undefined;
  return {
    opened,
    abort,
    set: (next: RunRecord) => (current = next),
    fail: (value: boolean) => (failing = value),
    tell: () => [...listeners].forEach((listener) => listener()),
    listeners: () => listeners.size,
    reads: () => reads,
    released: () => released,
    reader,
    /** Every complete block received so far, without waiting for more. */
    async drain(): Promise<string[]> {
      // Let pending reads settle and their events be enqueued.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const blocks: string[] = [];
      for (;;) {
        pending ??= reader.read();
        const result = await Promise.race([
          pending,
          new Promise<'idle'>((resolve) => setTimeout(() => resolve('idle'), 5)),
        ]);
        if (result === 'idle') break;
        pending = undefined;
        if (result.done) {
          blocks.push('END');
          break;
        }
        buffer += result.value;
        let split;
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          blocks.push(buffer.slice(0, split));
          buffer = buffer.slice(split + 2);
        }
      }
      return blocks;
    },
  };
}

const idOf = (block: string) => /^id: (.*)$/m.exec(block)?.[1];
const dataOf = (block: string) => JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as RunRecord;

describe('runEventStream', () => {
  it('sends the first run at once, as one `event: run` block with its updated_at as id', async () => {
    const stream = harness(run('2026-03-02T09:00:00.000Z'));
    const [first, ...rest] = await stream.drain();
    expect(first).toBe(
      `event: run\nid: 2026-03-02T09:00:00.000Z\ndata: ${JSON.stringify(run('2026-03-02T09:00:00.000Z'))}`,
    );
    expect(rest).toEqual([]);
    stream.opened.end();
    expect(await stream.drain()).toEqual(['END']);
    expect(stream.released()).toBe(1);
  });

  it('sends at once a change committed after the first read, before the stream listened', async () => {
    // The route read `first`; the run moved before the stream's listener was there.
    const stream = harness(run('t0'), QUIET, run('t1'));
    expect((await stream.drain()).map(idOf)).toEqual(['t0', 't1']);
    expect(stream.reads()).toBe(1);
    stream.opened.end();
  });

  it('reads again when told of a change during a read, so no commit is missed', async () => {
    const stream = harness(run('t0'));
    await stream.drain();
    // The stream read once as it started listening.
    expect(stream.reads()).toBe(1);
    stream.set(run('t1'));
    stream.tell();
    // Told again while the first read is in flight: one more read follows it.
    stream.set(run('t2'));
    stream.tell();
    const blocks = await stream.drain();
    expect(blocks.map(idOf)).toEqual(['t1', 't2']);
    expect(stream.reads()).toBe(3);
    stream.opened.end();
  });

  it('keeps streaming through failed reads (retried at the next poll)', async () => {
    const stream = harness(run('t0'), { ...QUIET, pollIntervalMs: 5 });
    await stream.drain();
    stream.fail(true);
    stream.set(run('t1'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await stream.drain()).toEqual([]);
    stream.fail(false);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await stream.drain()).map(idOf)).toEqual(['t1']);
    stream.opened.end();
  });

  it('ends after a final run, and lets go of everything once, however it ends', async () => {
    const final = harness(run('t0'));
    await final.drain();
    final.set(run('t1', 'completed'));
    final.tell();
    expect((await final.drain()).map((block) => idOf(block) ?? block)).toEqual(['t1', 'END']);
    expect([final.released(), final.listeners()]).toEqual([1, 0]);
    final.tell();
    final.opened.end();
    expect(final.released()).toBe(1);

    const already = harness(run('t0', 'cancelled'));
    expect((await already.drain()).map((block) => idOf(block) ?? block)).toEqual(['t0', 'END']);
    expect([already.released(), already.listeners()]).toEqual([1, 0]);

    const cancelled = harness(run('t0'));
    await cancelled.drain();
    await cancelled.reader.cancel();
    expect([cancelled.released(), cancelled.listeners()]).toEqual([1, 0]);
    cancelled.opened.end();
    expect(cancelled.released()).toBe(1);

    const aborted = harness(run('t0'));
    await aborted.drain();
    aborted.abort.abort();
    expect(await aborted.drain()).toEqual(['END']);
    expect([aborted.released(), aborted.listeners()]).toEqual([1, 0]);

    const timedOut = harness(run('t0'), { ...QUIET, maxDurationMs: 10 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await timedOut.drain()).map((block) => idOf(block) ?? block)).toEqual(['t0', 'END']);
    expect([timedOut.released(), timedOut.listeners()]).toEqual([1, 0]);
    const reads = timedOut.reads();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(timedOut.reads()).toBe(reads);
  });

  it('sends keep-alive comments', async () => {
    const stream = harness(run('t0'), { ...QUIET, keepAliveMs: 5 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    stream.opened.end();
    const [, ...rest] = await stream.drain();
    expect(rest.at(-1)).toBe('END');
    const comments = rest.slice(0, -1);
    expect(comments.length).toBeGreaterThan(1);
    expect(new Set(comments)).toEqual(new Set([': keep-alive']));
  });

  it('property: sends each distinct state once, in order, with ids that never repeat, until a final one', async () => {
    const states = fc.array(
      fc.record({
        tick: fc.integer({ min: 0, max: 2 }),
        status: fc.constantFrom<Status>('waiting', 'waiting', 'running', 'completed'),
        note: fc.constantFrom('', 'a', 'b'),
      }),
      { maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(states, async (steps) => {
        // updated_at never goes back: each step adds 0–2 ticks to the last.
        let time = 0;
        const runs = steps.map((step) => {
          time += step.tick;
          return run(`t${String(time).padStart(3, '0')}`, step.status, step.note);
        });
        const first = run('t000');
        const stream = harness(first);
        const blocks = await stream.drain();
        for (const next of runs) {
          stream.set(next);
          stream.tell();
          blocks.push(...(await stream.drain()));
        }
        stream.opened.end();
        const sent = blocks.filter((block) => block !== 'END').map(dataOf);
        // Expected: consecutive duplicates dropped, nothing after the first final state.
        const expected: RunRecord[] = [];
        for (const next of [first, ...runs]) {
          if (expected.some((item) => item.status === 'completed')) break;
          if (JSON.stringify(expected.at(-1)) !== JSON.stringify(next)) expected.push(next);
        }
        expect(sent).toEqual(expected);
        const ids = blocks.filter((block) => block !== 'END').map(idOf);
        expect(new Set(ids).size).toBe(ids.length);
        for (const [index, id] of ids.entries())
          expect(id!.startsWith(sent[index]!.updated_at)).toBe(true);
        expect(stream.released()).toBe(1);
      }),
      { numRuns: 100 },
    );
  });
});
