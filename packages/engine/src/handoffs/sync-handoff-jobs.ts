import type { CompiledScenario, RunState } from '@programrun/dsl';
import type { Transaction } from '../kernel/transaction.js';
import type { PendingFact } from '../lifecycle/build-records.js';
import type { HandoffJobRow, Scope, StoredRun } from '../store/store-v1.js';
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
  /** The job whose settled call caused the transition (its next row written with it). */
  readonly settledJobId?: string | undefined;
  readonly sandbox: SandboxOptions;
  readonly handoffs: HandoffSettings;
  /** The run's trace context, kept on the jobs it queues. */
  readonly traceContext?: string | null | undefined;
}

/** What a transition does to the run's handoff jobs (part of its one write). */
export interface HandoffJobChanges {
  /** Close the run's open jobs except these (null: the run awaited no handoff before). */
  readonly close: { readonly keep: readonly string[]; readonly at: string } | null;
  /** The job of the handoff the run now awaits, when it is to be called. */
  readonly insert: readonly HandoffJobRow[];
}

/**
 * Keeps a run's handoff jobs in step with the transition, in its write: closes the open
 * jobs of handoffs the run no longer awaits (answered, timed out, cancelled: one rule) and
 * queues the job of the handoff it now awaits. A run has at most one open job, the awaited
 * one, so nothing is closed unless the run awaited a handoff before. A live job queued
 * wakes this host's workers once the transaction commits.
 */
export function syncHandoffJobs(input: HandoffJobSync): HandoffJobChanges {
  const { transaction, scope, runId, handoffs } = input;
  const awaitedHandoff = input.previous?.record.awaiting?.kind === 'handoff';
  const close =
    awaitedHandoff && input.settledJobId === undefined
      ? { keep: keptHandoffJobs(runId, input.awaiting), at: input.now.toISOString() }
      : null;
  const insert = planHandoffJobs({
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
  if (insert.length > 0 && scope.environment === 'live') handoffs.wakeup.afterCommit(transaction);
  return { close, insert };
}
