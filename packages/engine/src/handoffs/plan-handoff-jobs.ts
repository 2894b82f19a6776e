import type { CompiledScenario, RunState, RunEnvironment } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import type { HandoffRequest } from '../connectors/handoff-contract.js';
import { deterministicId } from '../ids/deterministic-id.js';
import type { PendingFact } from '../lifecycle/build-records.js';
import type { HandoffJobRow } from '../store/handoff-job-spec.js';
import { simulatedLatencyMs, type SandboxOptions } from './sandbox.js';

/** The job id of a handoff: `hjob_…` derived from run, step and attempt. */
export function handoffJobId(runId: string, step: string, attempt: number): string {
  return deterministicId('hjob', `${runId}:${step}:${attempt}`);
}

/** Input of {@link planHandoffJobs}. */
export interface HandoffJobPlanInput {
  readonly compiled: CompiledScenario;
  readonly runId: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly now: Date;
  /** The transition's facts, with deadlines and partner keys (what `planTimers` returned). */
  readonly facts: readonly PendingFact[];
  /** What the run awaits after the transition: only that handoff gets a job. */
  readonly awaiting: RunState['awaiting'];
  readonly sandbox: SandboxOptions;
  /** Whether a live party has a connector on this engine. */
  readonly hasConnector: (party: string) => boolean;
  /** The run's trace context: the job's call spans join the run's trace. */
  readonly traceContext?: string | null | undefined;
}

const text = (data: JsonObject, field: string): string => {
  const value = data[field];
  return typeof value === 'string' ? value : '';
};

/** The job of one `handoff.requested` fact. */
function jobOf(input: HandoffJobPlanInput, fact: PendingFact, step: string): HandoffJobRow {
  const { runId, account, environment, now, data } = { ...input, data: fact.data };
  const attempt = Number(data.attempt ?? 1);
  const party = text(data, 'party');
  const idempotencyKey = text(data, 'idempotency_key');
  const request: HandoffRequest = {
    run_id: runId,
    step,
    party,
    action: text(data, 'action'),
    data: (data.request ?? {}) as JsonObject,
    idempotency_key: idempotencyKey,
    environment,
    account,
  };
  // The sandbox answers after the simulated latency on the account's test clock; a live
  // connector is called at once.
  const due =
    environment === 'test'
      ? new Date(now.getTime() + simulatedLatencyMs(input.compiled, step, input.sandbox))
      : now;
  return {
    id: handoffJobId(runId, step, attempt),
    run_id: runId,
    account,
    environment,
    party,
    step,
    attempt,
    idempotency_key: idempotencyKey,
    request: request as unknown as JsonObject,
    deadline: text(data, 'deadline'),
    status: 'queued',
    calls: 0,
    next_attempt_at: due.toISOString(),
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    ...(input.traceContext ? { trace_context: input.traceContext } : {}),
  };
}

/**
 * The handoff jobs a transition queues: one for the handoff the run now awaits, when its
 * party has a connector (the sandbox in the test environment, always). Pure: the same
 * facts at the same time give the same jobs.
 */
export function planHandoffJobs(input: HandoffJobPlanInput): HandoffJobRow[] {
  const { awaiting } = input;
  if (awaiting?.kind !== 'handoff') return [];
  const jobs: HandoffJobRow[] = [];
  for (const fact of input.facts) {
    if (fact.type !== 'handoff.requested' || fact.step !== awaiting.step) continue;
    if (Number(fact.data.attempt ?? 1) !== awaiting.attempt) continue;
    if (input.environment === 'live' && !input.hasConnector(text(fact.data, 'party'))) continue;
    jobs.push(jobOf(input, fact, awaiting.step));
  }
  return jobs;
}

/**
 * The open jobs a transition keeps: the one of the handoff the run still (or now) awaits.
 * Every other open job of the run is closed in the same transaction.
 */
export function keptHandoffJobs(runId: string, awaiting: RunState['awaiting']): string[] {
  return awaiting?.kind === 'handoff' ? [handoffJobId(runId, awaiting.step, awaiting.attempt)] : [];
}
