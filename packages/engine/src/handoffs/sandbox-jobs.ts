import type { HandoffOutcome } from '../connectors/handoff-contract.js';
import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import { applyEvent } from '../kernel/apply-event.js';
import { scenarioOfRun } from '../kernel/load-run.js';
import type { HandoffJobRow, Scope, StoreTransactionV1, TimerQuery } from '../store/store-v1.js';
import { describeCall, HANDOFF_CALL_SPAN, handoffSpanStart, reportCall } from './handoff-span.js';
import { closedJob, heldJob, settleIfHeld } from './job-fence.js';
import { answerEvent, sandboxConnector } from './sandbox.js';

/**
 * Leases the test environment's due sandbox jobs matching `query` (at most `limit`) to
 * this engine, inside the caller's transaction.
 */
export function claimSandboxJobs(
  context: EngineContext,
  tx: StoreTransactionV1,
  query: TimerQuery,
  dueAt: string,
  leaseNow: Date,
  limit: number,
): Promise<HandoffJobRow[]> {
  const { workerId, leaseMs } = context.handoffs;
  return tx.claimHandoffJobs({
    environment: 'test',
    ...(query.account === undefined ? {} : { account: query.account }),
    due_at: dueAt,
    lease_now: leaseNow.toISOString(),
    lease_until: new Date(leaseNow.getTime() + leaseMs).toISOString(),
    owner: workerId,
    limit,
  });
}

/**
 * Settles a claimed sandbox job in one transaction: the sandbox connector answers from the
 * run and the answer is applied, exactly what a `partner_response` timer did. True when it
 * changed the run; false when the job was taken over or the run no longer waits on it.
 * `at` is the test clock's time of the claim (the job's `updated_at`).
 */
export function settleSandboxJob(
  context: EngineContext,
  job: HandoffJobRow,
  at: string,
): Promise<boolean> {
  const scope: Scope = { account: job.account, environment: job.environment };
  const next = closedJob(job, at);
  // The simulated answer has a span of its own in the run's trace, like a live call's.
  const start = handoffSpanStart(context, job, true);
  return context.telemetry.inSpan(HANDOFF_CALL_SPAN, start, async (span) => {
    describeCall(span, job, true);
    let answered: HandoffOutcome | undefined;
    const settled = await settleIfHeld(
      context.transactions,
      job,
      async (transaction) => {
        try {
          const applied = await applyEvent(
            context,
            transaction,
            scope,
            job.run_id,
            (run, now) => {
              const compiled = scenarioOfRun(context.catalogue, run);
              const { context: runContext } = run.snapshot;
              const answer = sandboxConnector({ request: job, compiled, context: runContext });
              answered = answer.outcome;
              return answerEvent(job.step, job.attempt, answer, now);
            },
            { settledJob: heldJob(job, next) },
          );
          return { next, result: applied.accepted, written: applied.accepted };
        } catch (error) {
          // A job of a run that no longer exists is closed rather than retried forever.
          if (error instanceof EngineError && error.code === 'run_not_found')
            return { next, result: false, written: false };
          throw error;
        }
      },
      false,
    );
    reportCall(context, span, job, {
      outcome: settled ? 'answered' : 'dropped',
      ...(settled && answered !== undefined ? { answer: answered } : {}),
    });
    return settled;
  });
}
