import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import { applyEvent } from '../kernel/apply-event.js';
import type { Transaction } from '../kernel/transaction.js';
import { appendRunFacts } from '../lifecycle/append-run-facts.js';
import type { HandoffJobRow, Scope } from '../store/store-v1.js';
import { attemptFact, connectorSender } from './attempt-record.js';
import type { CallResult } from './call-connector.js';
import { closedJob, heldJob, settleIfHeld } from './job-fence.js';
import { answerEvent } from './sandbox.js';
import { planSettle, type SettlePlan } from './settle-plan.js';

/** A finished connector call of a claimed job. */
export interface FinishedCall {
  readonly job: HandoffJobRow;
  readonly result: CallResult;
  readonly durationMs: number;
}

/**
 * Writes the run's side of a settled call in one write with the job's next row (fenced on
 * the claim's lease): its `handoff.attempted` record and, for an answer (or a permanent
 * error), the answer applied as the handoff's outcome. False when the run did not take
 * the answer, so nothing was written.
 */
async function recordCall(
  context: EngineContext,
  transaction: Transaction,
  call: FinishedCall,
  plan: SettlePlan,
  at: string,
): Promise<boolean> {
  const { job } = call;
  const scope: Scope = { account: job.account, environment: job.environment };
  const settledJob = heldJob(job, plan.next);
  const facts = (compiled: Parameters<typeof attemptFact>[0]) => [
    attemptFact(compiled, job, plan, call.durationMs),
  ];
  if (!plan.answer)
    return appendRunFacts(context, transaction, scope, job.run_id, facts, at, settledJob);
  const answer = plan.answer;
  const sender = connectorSender(job.party, context.handoffs.workerId);
  const applied = await applyEvent(
    context,
    transaction,
    scope,
    job.run_id,
    (_run, now) => answerEvent(job.step, job.attempt, answer, now, sender),
    { settledJob, leadingFacts: facts },
  );
  return applied.accepted;
}

/**
 * Writes what a live connector call came to, in one write, if this worker still holds the
 * call: the call's `handoff.attempted` record, the answer (or permanent error) applied as
 * the handoff's outcome, and the job's next state (closed, accepted, retried or
 * exhausted). False when the result was dropped: another worker took the job over after
 * the lease ended, or the run no longer waits on it.
 */
export function settleLiveJob(context: EngineContext, call: FinishedCall): Promise<boolean> {
  const { job } = call;
  const scope: Scope = { account: job.account, environment: job.environment };
  return settleIfHeld(
    context.transactions,
    job,
    async (transaction) => {
      const now = await context.clocks.now(transaction.tx, scope);
      const plan = planSettle(job, call.result, now, context.handoffs);
      try {
        const written = await recordCall(context, transaction, call, plan, now.toISOString());
        return { next: plan.next, result: true, written };
      } catch (error) {
        // A job of a run that no longer exists is closed rather than called forever.
        if (!(error instanceof EngineError && error.code === 'run_not_found')) throw error;
        return { next: closedJob(plan.next, now.toISOString()), result: true, written: false };
      }
    },
    false,
  );
}
