import type { EngineContext } from '../engine-context.js';
import type { HandoffJobQuery, HandoffPartyLoad, StoreTransactionV1 } from '../store/store-v1.js';

/**
 * The parties' loads as this host reports them (`engine.partners`, the in-flight gauge):
 * leases read at `now` (the live clock's, by default), with the jobs whose calls ended on
 * this host and whose results are being written left out of `in_flight`, as the workers'
 * claims leave them.
 */
export function hostPartyLoads(
  context: EngineContext,
  tx: StoreTransactionV1,
  query: HandoffJobQuery,
  now: Date = context.liveClock.now(),
): Promise<HandoffPartyLoad[]> {
  return tx.handoffPartyLoads(query, now.toISOString(), [...context.endedCalls]);
}
