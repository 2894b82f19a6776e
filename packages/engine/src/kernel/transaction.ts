import type { StoreTransactionV1 } from '../store/store-v1.js';

/** Work to do once a transaction has committed (a wake-up, a notification). */
export type AfterCommitEffect = () => void | Promise<void>;

/**
 * One attempt of a unit of work: the store transaction, and effects that run only once it
 * commits (never for an attempt that rolls back or is retried).
 */
export interface Transaction {
  readonly tx: StoreTransactionV1;
  /** Runs `effect` after this transaction commits; dropped if it rolls back. */
  afterCommit(effect: AfterCommitEffect): void;
  /**
   * When the unit of work's first attempt began (`performance.now()` milliseconds): what
   * transition and create durations are measured from, retries included.
   */
  readonly startedAt?: number;
}
