import type { CompiledScenario } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import { loadRun, scenarioOfRun } from '../kernel/load-run.js';
import type { Transaction } from '../kernel/transaction.js';
import type { Scope, StoredRun } from '../store/store-v1.js';
import { appendLifecycle } from './append-lifecycle.js';
import { buildRecords, type PendingFact } from './build-records.js';

/**
 * Records facts about a run that are no transition of its machine (a connector call's
 * `handoff.attempted`), inside the caller's transaction: the records continue the run's
 * hash chain, and the run moves its chain head with compare-and-swap on its version.
 */
export async function appendRunFacts(
  context: EngineContext,
  transaction: Transaction,
  scope: Scope,
  runId: string,
  facts: (compiled: CompiledScenario) => readonly PendingFact[],
  at: string,
): Promise<void> {
  const run = await loadRun(transaction.tx, scope, runId);
  const compiled = scenarioOfRun(context.catalogue, run);
  const records = buildRecords(
    runId,
    { sequence: run.last_sequence, hash: run.record.evidence.chain_head },
    at,
    facts(compiled),
  );
  const last = records.at(-1);
  if (!last) return;
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
  await transaction.tx.updateRun(updated, run.version);
  await appendLifecycle(
    transaction,
    scope,
    { id: runId, scenario_id: compiled.id, scenario_digest: compiled.digest },
    records,
    context.deliveries,
    run.trace_context,
  );
}
