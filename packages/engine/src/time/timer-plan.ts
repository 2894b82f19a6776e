import {
  addDuration,
  type CompiledScenario,
  type EmittedFact,
  type RunContext,
  type RunEnvironment,
} from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import { partnerIdempotencyKey } from '../handoffs/partner-key.js';
import { deterministicId } from '../ids/deterministic-id.js';
import type { PendingFact } from '../lifecycle/build-records.js';
import type { TimerKind, TimerRow } from '../store/timer-spec.js';

/** What a transition's facts ask the engine to do besides recording them. */
export interface TimerPlan {
  /** The facts, enriched with deadlines and partner idempotency keys. */
  readonly facts: PendingFact[];
  readonly timers: TimerRow[];
}

/** Input of {@link planTimers}. */
export interface TimerPlanInput {
  readonly compiled: CompiledScenario;
  readonly runId: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  readonly now: Date;
  readonly facts: readonly EmittedFact[];
  readonly context: RunContext;
}

const stringField = (data: JsonObject, field: string): string => {
  const value = data[field];
  if (typeof value !== 'string') throw new TypeError(`fact field ${field} must be a string`);
  return value;
};

const numberField = (data: JsonObject, field: string): number => {
  const value = data[field];
  return typeof value === 'number' ? value : 1;
};

/**
 * Schedules a durable timer for every deadline a transition opened (approval expiry,
 * handoff timeout, wait). The simulated partner's answer is a handoff job now
 * (`planHandoffJobs`), not a timer. Pure: the same facts at the same time give the same timers (ids derived from run, step,
 * attempt and kind).
 */
export function planTimers(input: TimerPlanInput): TimerPlan {
  const { runId, now } = input;
  const timers: TimerRow[] = [];
  const timer = (
    kind: TimerKind,
    step: string,
    attempt: number,
    dueAt: Date,
    payload: JsonObject = {},
  ): string => {
    const due = dueAt.toISOString();
    timers.push({
      id: deterministicId('tmr', `${runId}:${step}:${attempt}:${kind}`),
      run_id: runId,
      account: input.account,
      environment: input.environment,
      kind,
      step,
      attempt,
      due_at: due,
      payload,
      status: 'pending',
    });
    return due;
  };

  const facts = input.facts.map((fact): PendingFact => {
    const step = fact.step;
    if (step === null) return fact;
    const attempt = numberField(fact.data, 'attempt');
    switch (fact.type) {
      case 'approval.requested': {
        const deadline = timer(
          'expiry',
          step,
          attempt,
          addDuration(now, stringField(fact.data, 'expires')),
        );
        return { ...fact, data: { ...fact.data, deadline } };
      }
      case 'wait.started': {
        const firesAt = timer(
          'wait',
          step,
          attempt,
          addDuration(now, stringField(fact.data, 'duration')),
        );
        return { ...fact, data: { ...fact.data, fires_at: firesAt } };
      }
      case 'handoff.requested': {
        const idempotencyKey = partnerIdempotencyKey(runId, step, attempt);
        const deadline = timer(
          'timeout',
          step,
          attempt,
          addDuration(now, stringField(fact.data, 'timeout')),
        );
        return { ...fact, data: { ...fact.data, idempotency_key: idempotencyKey, deadline } };
      }
      default:
        return fact;
    }
  });
  return { facts, timers };
}
