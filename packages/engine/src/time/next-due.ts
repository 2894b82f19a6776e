import type { StoreTransactionV1, TimerQuery } from '../store/store-v1.js';

/** The earliest thing due: a timer (`key` its id), or a queued sandbox job. */
export interface NextDue {
  /** Names what is due, so a walk can tell it met the same thing twice. */
  readonly key: string;
  readonly dueAt: string;
}

/**
 * The earliest pending timer matching `query` or, in the test environment, queued sandbox
 * job (a simulated partner's answer), whichever falls due first; a timer first on a tie.
 */
export async function nextDue(
  tx: StoreTransactionV1,
  query: TimerQuery,
): Promise<NextDue | undefined> {
  const timer = await tx.nextTimer(query);
  const job = query.environment === 'test' ? await tx.nextHandoffJob(query) : undefined;
  if (job !== undefined && (timer === undefined || job < timer.due_at))
    return { key: `hjob@${job}`, dueAt: job };
  return timer && { key: timer.id, dueAt: timer.due_at };
}
