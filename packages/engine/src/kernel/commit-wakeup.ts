import type { Transaction } from './transaction.js';

/**
 * Who is told once a transaction that queued work commits (a dispatcher or workers
 * waiting for it): listeners hear of the work only after its commit, so they never look
 * for rows that are not there yet, and once per transaction however much it queued.
 */
export interface CommitWakeup {
  /** Tells the listeners once `transaction` commits. */
  afterCommit(transaction: Transaction): void;
  /** Calls `listener` after every commit that queued work; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** A wake-up with no listeners yet. */
export function createCommitWakeup(): CommitWakeup {
  const listeners = new Set<() => void>();
  const told = new WeakSet<Transaction>();
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  return {
    afterCommit(transaction) {
      if (told.has(transaction)) return;
      told.add(transaction);
      transaction.afterCommit(notify);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
