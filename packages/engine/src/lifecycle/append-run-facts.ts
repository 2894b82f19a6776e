import type { CompiledScenario } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import { loadRunForTransition, scenarioOfRun } from '../kernel/load-run.js';
import type { Transaction } from '../kernel/transaction.js';
import type { HandoffJobSettle, Scope, StoredRun } from '../store/store-v1.js';
import { buildRecords, type PendingFact } from './build-records.js';

/**
 * Records facts about a run that are no transition of its machine (a connector call's
 * `handoff.attempted`), inside the caller's transaction, in one write: the records
 * continue the run's hash chain (each also its outbox event), the run moves its chain head
 * with compare-and-swap on its version, and `settledJob`, when given, is written fenced on
 * its lease (see `TransitionWrite.settleHandoffJob`). False when there was nothing to
 * record (and nothing was written).
 */
export async function appendRunFacts(
  context: EngineContext,
  transaction: Transaction,
  scope: Scope,
  runId: string,
  facts: (compiled: CompiledScenario) => readonly PendingFact[],
  at: string,
  settledJob: HandoffJobSettle | null = null,
): Promise<boolean> {
  const { run } = await loadRunForTransition(transaction.tx, scope, runId);
  const compiled = scenarioOfRun(context.catalogue, run);
  const records = buildRecords(
    runId,
    { sequence: run.last_sequence, hash: run.record.evidence.chain_head },
    at,
    facts(compiled),
  );
  const last = records.at(-1);
  if (!last) return false;
  const updated: StoredRun = {
    ...run,
    version: run.version + 1,
    last_sequence: last.sequence,
    record: {
      ...run.record,
      evidence: { ...run.record.evidence, chain_head: last.hash },
      updated_at: at,
    },
  };
  const written = await transaction.tx.writeTransition({
    scope,
    run: updated,
    expectedVersion: run.version,
    records,
    deliveriesDueAt: context.deliveries.dueAt(scope.environment),
    scheduleTimers: [],
    cancelTimers: [],
    firedTimer: null,
    closeHandoffJobs: null,
    insertHandoffJobs: [],
    settleHandoffJob: settledJob,
  });
  if (written.deliveries > 0) context.deliveries.afterCommit(transaction);
  return true;
}
