import { WORKER_BATCH } from '../kernel/worker-batch.js';
import type { TransactionRunner } from '../kernel/transaction-runner.js';
import type { Transaction } from '../kernel/transaction.js';
import { isStoreError } from '../store/store-error.js';
import type { HandoffJobRow, HandoffJobSettle, StoreTransactionV1 } from '../store/store-v1.js';

/**
 * Writes a job's next row if the worker still holds the call (`claimed` is the row its
 * claim returned): false, writing nothing, when another worker took the job over after the
 * lease ended or the run stopped awaiting it (a callback won, a timeout).
 */
async function writeIfHeld(
  tx: StoreTransactionV1,
  claimed: HandoffJobRow,
  next: HandoffJobRow,
): Promise<boolean> {
  try {
    await tx.updateHandoffJob(next, { lease_owner: claimed.lease_owner, calls: claimed.calls });
    return true;
  } catch (error) {
    if (isStoreError(error, 'version_conflict') || isStoreError(error, 'not_found')) return false;
    throw error;
  }
}

/** Rolls a settle back: the worker no longer holds the call. */
class CallTakenOver extends Error {}

/** What a settle did to the run, and the job's next row. */
export interface SettleWork<T> {
  readonly next: HandoffJobRow;
  readonly result: T;
  /** Whether the run's write already wrote `next`, fenced (its `settleHandoffJob`). */
  readonly written: boolean;
}

/**
 * The job's next row as a transition writes it, fenced on the claim's lease owner and call
 * count (`claimed` is the row the claim returned).
 */
export const heldJob = (claimed: HandoffJobRow, next: HandoffJobRow): HandoffJobSettle => ({
  job: next,
  expected: { lease_owner: claimed.lease_owner, calls: claimed.calls },
});

/**
 * Settles a claimed job in one transaction: `work` writes the run's side (records, the
 * answer's transition), usually with the job's next row in the same write
 * ({@link heldJob}), and says the next row; one not written yet is written last. Either
 * way the row is fenced on the claim's lease owner and call count: when another worker
 * took the call over, or the run stopped awaiting it, everything rolls back and `dropped`
 * is returned. The run is written before the job, the order every transition takes, so
 * two transactions never wait on each other's rows. The settle writes once (the
 * transition with the job's row, or the row alone): a single-write unit of work, two round
 * trips on SQL stores.
 */
export async function settleIfHeld<T>(
  transactions: TransactionRunner,
  claimed: HandoffJobRow,
  work: (transaction: Transaction) => Promise<SettleWork<T>>,
  dropped: T,
): Promise<T> {
  try {
    return await transactions.run(
      async (transaction) => {
        const { next, result, written } = await work(transaction);
        if (!written && !(await writeIfHeld(transaction.tx, claimed, next)))
          throw new CallTakenOver();
        return result;
      },
      { singleWrite: true, batch: WORKER_BATCH },
    );
  } catch (error) {
    if (error instanceof CallTakenOver || isStoreError(error, 'lease_lost')) return dropped;
    throw error;
  }
}

/** The job closed: the run has its answer (or no longer exists). */
export const closedJob = (job: HandoffJobRow, at: string): HandoffJobRow => ({
  ...job,
  status: 'closed',
  lease_owner: null,
  lease_until: null,
  updated_at: at,
});
