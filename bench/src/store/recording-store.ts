import type { StoreTransactionV1, StoreV1 } from '@programrun/engine';

/** One store operation called inside a transaction, with its arguments. */
export interface RecordedCall {
  readonly method: keyof StoreTransactionV1;
  readonly args: readonly unknown[];
}

/** One transaction: its calls in order, and how long it took until it settled. */
export interface RecordedTransaction {
  readonly calls: RecordedCall[];
  milliseconds: number;
}

/** A store that keeps every transaction's calls, in order. */
export interface RecordingStore {
  readonly store: StoreV1;
  /** One entry per transaction (committed or not), in the order they started. */
  readonly transactions: RecordedTransaction[];
}

/**
 * Wraps a store so every operation of every transaction is recorded with its arguments
 * (by reference: callers copy what they keep) and every transaction timed. Used to capture
 * what one create does, and where its time goes.
 *
 * @example
 * ```ts
 * const { store, transactions } = recordingStore(createMemoryStore());
 * ```
 */
export function recordingStore(inner: StoreV1): RecordingStore {
  const transactions: RecordedTransaction[] = [];
  const store: StoreV1 = {
    specificationVersion: 'v1',
    name: `recording(${inner.name})`,
    transaction(work) {
      const recorded: RecordedTransaction = { calls: [], milliseconds: 0 };
      const { calls } = recorded;
      transactions.push(recorded);
      const started = performance.now();
      const settled = () => (recorded.milliseconds = performance.now() - started);
      const result = inner.transaction((tx) =>
        work(
          new Proxy(tx, {
            get(target, property, receiver) {
              const value: unknown = Reflect.get(target, property, receiver);
              if (typeof value !== 'function') return value;
              return (...args: unknown[]) => {
                calls.push({ method: property as keyof StoreTransactionV1, args });
                return (value as (...inner: unknown[]) => unknown).apply(target, args);
              };
            },
          }),
        ),
      );
      result.then(settled, settled);
      return result;
    },
    close: () => inner.close(),
  };
  return { store, transactions };
}
