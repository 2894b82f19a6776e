import type { RunEnvironment } from '@programrun/dsl';
import type { Transaction } from '../kernel/transaction.js';
import type { EnvironmentClocks } from '../time/environment-clocks.js';

/**
 * When queued webhook deliveries fall due, and who is told once they are committed (a
 * dispatcher waiting for work). Listeners hear of deliveries only after the transaction
 * that queued them commits, so they never look for rows that are not there yet.
 */
export interface DeliveryWakeup {
  /** Now on an environment's base clock (live clock, or the test base clock). */
  dueAt(environment: RunEnvironment): string;
  /** Tells the listeners once `transaction` commits. */
  afterCommit(transaction: Transaction): void;
  /** Calls `listener` after every commit that queued deliveries; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * The wake-up of an engine.
 */
export function createDeliveryWakeup(clocks: EnvironmentClocks): DeliveryWakeup {
  const listeners = new Set<() => void>();
  const told = new WeakSet<Transaction>();
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  return {
    dueAt: (environment) =>
      (environment === 'live' ? clocks.live() : clocks.testBase()).toISOString(),
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
