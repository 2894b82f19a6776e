import type { QueryOptions } from './sql-database.js';

/**
 * One transaction on one connection whose BEGIN waits for the first statement that needs
 * it. In a lazy transaction (a single-write unit of work, see `TransactionOptions`), plain
 * reads before it run on their own: at READ COMMITTED each statement takes its own
 * snapshot inside a transaction too, so they see exactly what they would inside. A
 * statement marked `autocommit` that comes before any BEGIN commits by itself (one round
 * trip, no BEGIN or COMMIT), and nothing but reads may follow it. Every other statement
 * starts the transaction first, as an eager transaction does at once.
 */
export interface LazyTransaction {
  /** Runs `statement` once the transaction is in the state its options need. */
  run<T>(options: QueryOptions, statement: () => Promise<T>): Promise<T>;
  /** Whether BEGIN was sent (the end of the work then sends COMMIT or ROLLBACK). */
  readonly begun: boolean;
  /**
   * Takes the transaction's one write when it may still commit by itself (lazy, nothing
   * but reads sent): true, and any write after it is refused as a second write. False,
   * changing nothing, for an eager transaction or one that began or wrote.
   */
  takeWrite(): boolean;
}

/** Thrown for a write after the write a single-write unit of work committed on its own. */
export class SecondWriteError extends Error {
  override readonly name = 'SecondWriteError';
}

/**
 * A {@link LazyTransaction} that sends BEGIN through `begin`; eager ones (`lazy: false`)
 * begin before their first statement, whatever it is.
 */
export function lazyTransaction(lazy: boolean, begin: () => Promise<void>): LazyTransaction {
  let begun = false;
  let committed = false;
  return {
    get begun() {
      return begun;
    },
    takeWrite() {
      if (!lazy || begun || committed) return false;
      committed = true;
      return true;
    },
    async run(options, statement) {
      if (begun) return statement();
      if (lazy && options.read) return statement();
      if (committed)
        throw new SecondWriteError(
          'a single-write unit of work wrote again after its write committed',
        );
      if (lazy && options.autocommit) {
        committed = true;
        return statement();
      }
      await begin();
      begun = true;
      return statement();
    },
  };
}
