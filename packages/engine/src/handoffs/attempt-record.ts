import type { CompiledScenario, SignalSender } from '@programrun/dsl';
import type { PendingFact } from '../lifecycle/build-records.js';
import type { HandoffJobRow } from '../store/store-v1.js';
import type { SettlePlan } from './settle-plan.js';

/**
 * The `handoff.attempted` fact of one live connector call: which handoff and call, how it
 * ended, why it failed, how long it took and when the next call is due.
 */
export function attemptFact(
  compiled: CompiledScenario,
  job: HandoffJobRow,
  plan: SettlePlan,
  durationMs: number,
): PendingFact {
  return {
    type: 'handoff.attempted',
    stage: compiled.graph.steps.get(job.step)?.stage ?? null,
    step: job.step,
    data: {
      party: job.party,
      attempt: job.attempt,
      call: job.calls,
      outcome: plan.outcome,
      error_class: plan.error?.class ?? null,
      status: plan.error?.status ?? null,
      duration_ms: durationMs,
      idempotency_key: job.idempotency_key,
      next_attempt_at: plan.outcome === 'retrying' ? plan.next.next_attempt_at : null,
    },
  };
}

/** Who answered when a live connector did: the party's connector, on this worker. */
export const connectorSender = (party: string, workerId: string): SignalSender => ({
  actor: `connector:${party}`.slice(0, 128),
  credential_id: workerId,
});
