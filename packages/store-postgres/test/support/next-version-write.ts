// A transition write that moves a stored run one version on and writes nothing else: what
// tests of the write statement's compare-and-swap and plans send.
import type { Scope, StoreV1, TransitionWrite } from '@programrun/engine';

/**
 * The write moving run `id` of `scope` in `store` to its next version, expecting `expected`
 * (its current version when not given), with no records, timers or jobs.
 */
export async function nextVersionWrite(
  store: StoreV1,
  scope: Scope,
  id: string,
  expected?: number,
): Promise<TransitionWrite> {
  const run = await store.transaction((tx) => tx.getRun(scope, id));
  if (!run) throw new Error(`no run ${id} in ${scope.account}`);
  return {
    scope,
    run: { ...run, version: run.version + 1 },
    expectedVersion: expected ?? run.version,
    records: [],
    deliveriesDueAt: run.created_at,
    scheduleTimers: [],
    cancelTimers: [],
    firedTimer: null,
    closeHandoffJobs: null,
    insertHandoffJobs: [],
    settleHandoffJob: null,
  };
}
