// The lifecycle chain checked in the browser: every record's hash recomputed, each `prev`
// linked, and the run's `evidence.chain_head` found at the end of what was read.
import { verifyChain } from '@programrun/evidence';
import type { LifecycleRecord } from '../../api/types.js';

/** What the Lifecycle region says about the chain. */
export type ChainStatus =
  | { kind: 'pending' }
  | { kind: 'verified'; length: number }
  | { kind: 'broken'; at: number; reason: string };

/**
 * Verifies `records` (sequence order, from 1) against `chainHead`. Records newer than the
 * head (read after the run was) are verified too; a head not among the records while more
 * are being read is `pending`.
 */
export function chainStatus(
  records: readonly LifecycleRecord[],
  chainHead: string | null,
  loading: boolean,
): ChainStatus {
  const whole = verifyChain(records);
  if (!whole.ok) {
    return { kind: 'broken', at: whole.sequence ?? whole.index + 1, reason: whole.message };
  }
  if (chainHead === null) {
    return records.length === 0
      ? { kind: 'verified', length: 0 }
      : { kind: 'broken', at: 1, reason: 'the run has no chain head but has records' };
  }
  const end = records.findIndex((record) => record.hash === chainHead);
  if (end >= 0) return { kind: 'verified', length: end + 1 };
  if (loading) return { kind: 'pending' };
  const last = records.at(-1);
  return {
    kind: 'broken',
    at: last?.sequence ?? 1,
    reason: `the chain ends in ${last?.hash ?? 'nothing'}, not in the run's chain head ${chainHead}`,
  };
}
