import type { CompiledScenario, RunState } from '@programrun/dsl';
import type { Transaction } from '../kernel/transaction.js';
import type { PendingFact } from '../lifecycle/build-records.js';
import type { Scope, StoredRun } from '../store/store-v1.js';
import type { HandoffSettings } from './handoff-settings.js';
import { keptHandoffJobs, planHandoffJobs } from './plan-handoff-jobs.js';
import type { SandboxOptions } from './sandbox.js';

/** Input of {@link syncHandoffJobs}: the transition as `commitTransition` sees it. */
export interface HandoffJobSync {
  readonly transaction: Transaction;
  readonly compiled: CompiledScenario;
  readonly scope: Scope;
  readonly runId: string;
  readonly now: Date;
  readonly facts: readonly PendingFact[];
  readonly awaiting: RunState['awaiting'];
  readonly previous: StoredRun | null;
  /** The job whose settling caused the transition (already closed by the settle). */
  readonly settledJobId?: string | undefined;
  readonly sandbox: SandboxOptions;
  readonly handoffs: HandoffSettings;
  /** The run's trace context, kept on the jobs it queues. */
  readonly traceContext?: string | null | undefined;
}

/**
 * Keeps a run's handoff jobs in step with the transition, in its transaction: closes the
 * open jobs of handoffs the run no longer awaits (answered, timed out, cancelled: one
 * rule) and queues the job of the handoff it now awaits. A run has at most one open job,
 * the awaited one, so nothing is read or closed unless the run awaited a handoff before.
 */
export async function syncHandoffJobs(input: HandoffJobSync): Promise<void> {
  const { transaction, scope, runId, handoffs } = input;
  const { tx } = transaction;
  const awaitedHandoff = input.previous?.record.awaiting?.kind === 'handoff';
  if (awaitedHandoff && input.settledJobId === undefined) {
    await tx.closeHandoffJobs(
      runId,
      keptHandoffJobs(runId, input.awaiting),
      input.now.toISOString(),
    );
  }
  const jobs = planHandoffJobs({
    compiled: input.compiled,
    runId,
    account: scope.account,
    environment: scope.environment,
    now: input.now,
    facts: input.facts,
    awaiting: input.awaiting,
    sandbox: input.sandbox,
    hasConnector: (party) => handoffs.partners.has(party),
    traceContext: input.traceContext,
  });
  if (jobs.length === 0) return;
  await tx.insertHandoffJobs(jobs);
  if (scope.environment === 'live') handoffs.wakeup.afterCommit(transaction);
}
