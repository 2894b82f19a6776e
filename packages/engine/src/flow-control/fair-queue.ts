import { assertInteger } from './check-options.js';

/** Settings of {@link createFairQueue}. */
export interface FairQueueOptions<T> {
  /** Items in flight at most (an integer, at least 1). */
  readonly concurrency: number;
  /** The key an item is shared out by, such as its account. */
  readonly keyOf: (item: T) => string;
}

/** What one key has waiting and in flight. */
export interface FairQueueKeyStats {
  readonly queued: number;
  readonly inFlight: number;
}

/** Counts of a fair queue; `byKey` lists the keys with anything queued or in flight. */
export interface FairQueueStats {
  readonly inFlight: number;
  readonly queued: number;
  readonly byKey: Readonly<Record<string, FairQueueKeyStats>>;
}

/**
 * A queue that admits at most `concurrency` items at once and shares admissions out
 * round-robin by key, first in first out within a key.
 *
 * Fairness, precisely: an item enqueued while its key has nothing queued is admitted
 * after at most `k` admissions of other items, where `k` is the number of other keys
 * with items queued at that moment. So one key's backlog of 1,000 delays another key's
 * single item by at most one admission.
 */
export interface FairQueue<T> {
  /**
   * Adds an item behind the others of its key.
   *
   * @example
   * ```ts
   * const queue = createFairQueue<{ account: string }>({ concurrency: 2, keyOf: (job) => job.account });
   * queue.enqueue({ account: 'acct_a' });
   * ```
   */
  enqueue(item: T): void;
  /**
   * Admits the next item, now in flight, or `undefined` when `concurrency` items are in
   * flight already or nothing is queued.
   *
   * @example
   * ```ts
   * const queue = createFairQueue<string>({ concurrency: 1, keyOf: (job) => job });
   * queue.enqueue('a');
   * queue.next(); // 'a'
   * queue.next(); // undefined: at capacity
   * ```
   */
  next(): T | undefined;
  /**
   * Marks an admitted item finished, freeing its slot; throws a RangeError for an item
   * not in flight.
   *
   * @example
   * ```ts
   * const queue = createFairQueue<string>({ concurrency: 1, keyOf: (job) => job });
   * queue.enqueue('a');
   * const job = queue.next()!;
   * queue.done(job);
   * ```
   */
  done(item: T): void;
  /**
   * What is queued and in flight, in all and by key.
   *
   * @example
   * ```ts
   * const queue = createFairQueue<string>({ concurrency: 1, keyOf: (job) => job });
   * queue.enqueue('a');
   * queue.stats(); // { inFlight: 0, queued: 1, byKey: { a: { queued: 1, inFlight: 0 } } }
   * ```
   */
  stats(): FairQueueStats;
}

/** One key's waiting items and admitted count. */
interface KeyLane<T> {
  readonly items: T[];
  /** Index of the first item not yet admitted (items before it are dropped lazily). */
  head: number;
  inFlight: number;
}

const waiting = (lane: KeyLane<unknown>): number => lane.items.length - lane.head;

/**
 * A fair admission queue: at most `concurrency` items in flight, the waiting ones admitted
 * round-robin by `keyOf` so no key's backlog holds up another key. Pure: it never calls
 * the items, the caller asks for `next()` and reports `done(item)`.
 *
 * @example
 * ```ts
 * const queue = createFairQueue<{ account: string; id: number }>({
 *   concurrency: 1,
 *   keyOf: (job) => job.account,
 * });
 * for (let id = 0; id < 1_000; id++) queue.enqueue({ account: 'acct_big', id });
 * queue.enqueue({ account: 'acct_small', id: 0 });
 * const first = queue.next()!; // acct_big 0
 * queue.done(first);
 * queue.next(); // { account: 'acct_small', id: 0 }: its turn came next
 * ```
 */
export function createFairQueue<T>(options: FairQueueOptions<T>): FairQueue<T> {
  const { concurrency, keyOf } = options;
  assertInteger('concurrency', concurrency, 1);

  const lanes = new Map<string, KeyLane<T>>();
  /** Keys with items waiting, in turn order (a Set keeps insertion order). */
  const turns = new Set<string>();
  /** Admitted items not yet done, by identity: their key and how many times each is in flight. */
  const admitted = new Map<T, { readonly key: string; count: number }>();
  let inFlight = 0;
  let queued = 0;

  const laneOf = (key: string): KeyLane<T> => {
    let lane = lanes.get(key);
    if (!lane) {
      lane = { items: [], head: 0, inFlight: 0 };
      lanes.set(key, lane);
    }
    return lane;
  };
  const forgetIfIdle = (key: string, lane: KeyLane<T>): void => {
    if (waiting(lane) === 0 && lane.inFlight === 0) lanes.delete(key);
  };

  return {
    enqueue(item) {
      const key = keyOf(item);
      const lane = laneOf(key);
      lane.items.push(item);
      queued += 1;
      turns.add(key);
    },
    next() {
      if (inFlight >= concurrency) return undefined;
      const key = turns.values().next().value;
      if (key === undefined) return undefined;
      const lane = lanes.get(key)!;
      const item = lane.items[lane.head] as T;
      lane.head += 1;
      if (lane.head * 2 >= lane.items.length) {
        lane.items.splice(0, lane.head);
        lane.head = 0;
      }
      // Its turn is used: to the back of the line, or out of it when nothing is left.
      turns.delete(key);
      if (waiting(lane) > 0) turns.add(key);
      lane.inFlight += 1;
      queued -= 1;
      inFlight += 1;
      const entry = admitted.get(item);
      if (entry) entry.count += 1;
      else admitted.set(item, { key, count: 1 });
      return item;
    },
    done(item) {
      const entry = admitted.get(item);
      if (!entry) throw new RangeError('done() was called for an item not in flight');
      entry.count -= 1;
      if (entry.count === 0) admitted.delete(item);
      const { key } = entry;
      const lane = lanes.get(key)!;
      lane.inFlight -= 1;
      inFlight -= 1;
      forgetIfIdle(key, lane);
    },
    stats() {
      // fromEntries defines own properties, so a key such as `__proto__` is safe.
      const byKey = Object.fromEntries(
        [...lanes].map(([key, lane]) => [key, { queued: waiting(lane), inFlight: lane.inFlight }]),
      );
      return { inFlight, queued, byKey };
    },
  };
}
