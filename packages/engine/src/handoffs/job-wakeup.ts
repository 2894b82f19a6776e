import type { Transaction } from '../kernel/transaction.js';

/**
 * Who is told once a transaction that queued a live handoff job commits (workers waiting
 * for work), so they never look for a job that is not there yet.
 */
export interface JobWakeup {
  /** Tells the listeners once `transaction` commits. */
  afterCommit(transaction: Transaction): void;
  /** Calls `listener` after every commit that queued a job; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** The job wake-up of an engine (mirrors the webhook delivery wake-up). */
export function createJobWakeup(): JobWakeup {
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
