import type { TransactionRunner } from '../kernel/transaction-runner.js';
import { isStoreError } from '../store/store-error.js';
import type { HandoffJobRow } from '../store/store-v1.js';

/**
 * Gives back the lease of a job this worker claimed but will not settle (its host is
 * stopping): the job is written back queued with no lease, its call count kept, so the
 * next claim anywhere is the next call, with the same key. Fenced on the claim's lease
 * owner and call count: a job another worker took over, or that was closed meanwhile, is
 * left alone (false).
 */
export function releaseJobLease(
  transactions: TransactionRunner,
  claimed: HandoffJobRow,
): Promise<boolean> {
  return transactions.run(async ({ tx }) => {
    try {
      await tx.updateHandoffJob(
        { ...claimed, lease_owner: null, lease_until: null },
        { lease_owner: claimed.lease_owner, calls: claimed.calls },
      );
      return true;
    } catch (error) {
      if (isStoreError(error, 'version_conflict') || isStoreError(error, 'not_found')) return false;
      throw error;
    }
  });
}
