import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createFairQueue, type FairQueue } from '../../src/index.js';

interface Job {
  readonly account: string;
  readonly id: number;
}

const jobQueue = (concurrency: number): FairQueue<Job> =>
  createFairQueue<Job>({ concurrency, keyOf: (job) => job.account });

describe('createFairQueue', () => {
  it('admits at most concurrency items, FIFO within a key', () => {
    const queue = jobQueue(2);
    for (let id = 0; id < 3; id++) queue.enqueue({ account: 'a', id });
    const first = queue.next()!;
    const second = queue.next()!;
    expect([first.id, second.id]).toEqual([0, 1]);
    expect(queue.next()).toBeUndefined();
    expect(queue.stats()).toEqual({
      inFlight: 2,
      queued: 1,
      byKey: { a: { queued: 1, inFlight: 2 } },
    });
    queue.done(first);
    expect(queue.next()?.id).toBe(2);
    expect(queue.next()).toBeUndefined();
  });

  it('takes turns between keys', () => {
    const queue = jobQueue(10);
    for (let id = 0; id < 3; id++) queue.enqueue({ account: 'a', id });
    for (let id = 0; id < 2; id++) queue.enqueue({ account: 'b', id });
    queue.enqueue({ account: 'c', id: 0 });
    const order = [0, 1, 2, 3, 4, 5].map(() => {
      const job = queue.next()!;
      return `${job.account}${job.id}`;
    });
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2']);
  });

  it('a backlog of 1,000 delays another key’s single item by at most one admission', () => {
    for (const concurrency of [1, 2, 5]) {
      const queue = jobQueue(concurrency);
      for (let id = 0; id < 1_000; id++) queue.enqueue({ account: 'acct_big', id });
      const inFlight = Array.from({ length: concurrency }, () => queue.next()!);
      queue.enqueue({ account: 'acct_small', id: 0 });
      const admitted: string[] = [];
      while (!admitted.includes('acct_small')) {
        queue.done(inFlight.shift()!);
        const job = queue.next()!;
        inFlight.push(job);
        admitted.push(job.account);
      }
      expect(admitted.length).toBeLessThanOrEqual(2);
    }
  });

  it('tracks equal primitive items by count, and forgets idle keys', () => {
    const queue = createFairQueue<string>({ concurrency: 2, keyOf: (item) => item });
    queue.enqueue('x');
    queue.enqueue('x');
    expect([queue.next(), queue.next()]).toEqual(['x', 'x']);
    queue.done('x');
    expect(queue.stats().byKey).toEqual({ x: { queued: 0, inFlight: 1 } });
    queue.done('x');
    expect(queue.stats()).toEqual({ inFlight: 0, queued: 0, byKey: {} });
    expect(() => queue.done('x')).toThrow(RangeError);
  });

  it('keeps a key named __proto__ as data', () => {
    const queue = createFairQueue<string>({ concurrency: 1, keyOf: (item) => item });
    queue.enqueue('__proto__');
    expect(Object.keys(queue.stats().byKey)).toEqual(['__proto__']);
  });

  it('rejects an invalid concurrency', () => {
    expect(() => jobQueue(0)).toThrow(RangeError);
    expect(() => jobQueue(1.5)).toThrow(RangeError);
  });
});

type Operation =
  | { readonly kind: 'enqueue'; readonly account: string }
  | { readonly kind: 'next' }
  | { readonly kind: 'done'; readonly pick: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('enqueue' as const),
    account: fc.constantFrom('a', 'b', 'c', 'd'),
  }),
  fc.record({ kind: fc.constant('next' as const) }),
  fc.record({ kind: fc.constant('done' as const), pick: fc.nat() }),
);

describe('fair queue properties', () => {
  it('never exceeds concurrency, stays FIFO per key, is fair, and admits everything', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(operation, { maxLength: 300 }),
        (concurrency, operations) => {
          const queue = jobQueue(concurrency);
          const inFlight: Job[] = [];
          const enqueued: Job[] = [];
          let admissions = 0;
          /** For an item enqueued when its key had nothing queued: when, and how many other keys waited. */
          const fairness = new Map<Job, { at: number; keysAhead: number }>();
          const lastAdmittedId = new Map<string, number>();
          const admit = (job: Job) => {
            admissions += 1;
            expect(job.id).toBeGreaterThan(lastAdmittedId.get(job.account) ?? -1);
            lastAdmittedId.set(job.account, job.id);
            const promise = fairness.get(job);
            if (promise) expect(admissions - 1 - promise.at).toBeLessThanOrEqual(promise.keysAhead);
            inFlight.push(job);
            expect(inFlight.length).toBeLessThanOrEqual(concurrency);
          };

          for (const step of operations) {
            if (step.kind === 'enqueue') {
              const job = { account: step.account, id: enqueued.length };
              const { byKey } = queue.stats();
              const waiting = Object.entries(byKey).filter(([, lane]) => lane.queued > 0);
              if (!waiting.some(([key]) => key === job.account)) {
                fairness.set(job, { at: admissions, keysAhead: waiting.length });
              }
              enqueued.push(job);
              queue.enqueue(job);
            } else if (step.kind === 'next') {
              const before = queue.stats();
              const job = queue.next();
              if (job) admit(job);
              else expect(before.queued === 0 || before.inFlight === concurrency).toBe(true);
            } else if (inFlight.length > 0) {
              const [job] = inFlight.splice(step.pick % inFlight.length, 1);
              queue.done(job!);
            }
            const stats = queue.stats();
            expect(stats.inFlight).toBe(inFlight.length);
            expect(stats.inFlight).toBeLessThanOrEqual(concurrency);
            const sum = (field: 'queued' | 'inFlight') =>
              Object.values(stats.byKey).reduce((total, lane) => total + lane[field], 0);
            expect(sum('queued')).toBe(stats.queued);
            expect(sum('inFlight')).toBe(stats.inFlight);
          }

          // Liveness: finishing what is in flight and asking again admits everything.
          for (let round = 0; round <= enqueued.length; round++) {
            for (let job = queue.next(); job; job = queue.next()) admit(job);
            if (inFlight.length === 0) break;
            queue.done(inFlight.shift()!);
          }
          expect(queue.stats()).toEqual({ inFlight: 0, queued: 0, byKey: {} });
          expect(admissions).toBe(enqueued.length);
        },
      ),
    );
  });

  it('one key’s backlog lets another key’s item in within one admission, at any concurrency', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.nat({ max: 16 }),
        (concurrency, backlog, startedFirst) => {
          const queue = jobQueue(concurrency);
          for (let id = 0; id < backlog; id++) queue.enqueue({ account: 'big', id });
          const inFlight: Job[] = [];
          for (let i = 0; i < startedFirst; i++) {
            const job = queue.next();
            if (job) inFlight.push(job);
          }
          const bigWaiting = queue.stats().queued > 0;
          queue.enqueue({ account: 'small', id: 0 });
          let before = 0;
          for (;;) {
            const job = queue.next() ?? (queue.done(inFlight.shift()!), queue.next()!);
            if (job.account === 'small') break;
            inFlight.push(job);
            before += 1;
          }
          expect(before).toBeLessThanOrEqual(bigWaiting ? 1 : 0);
        },
      ),
    );
  });
});
