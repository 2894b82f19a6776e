import type { RunState } from '@programrun/dsl';
import type { TimerRow } from '../store/timer-spec.js';

/** What a transition does to the run's timers. */
export interface TimerReconciliation {
  /** New timers of what the run now awaits. */
  readonly schedule: readonly TimerRow[];
  /** Pending timers that no longer apply (their step or attempt is no longer awaited). */
  readonly cancel: readonly TimerRow[];
  /** Pending timers that still apply. */
  readonly keep: readonly TimerRow[];
}

/**
 * Which timers a transition schedules, cancels and keeps: only timers of what the run now
 * awaits (its step and attempt) survive, so a stale deadline can never fire into a later
 * attempt, and none a planned timer replaces. The timer that caused the transition (`firedTimerId`) is settled by the caller
 * and appears in none of the lists. Pure.
 */
export function reconcileTimers(input: {
  readonly existing: readonly TimerRow[];
  readonly planned: readonly TimerRow[];
  readonly awaiting: RunState['awaiting'];
  readonly firedTimerId?: string | undefined;
  /** Pending timers a planned one takes the place of (an upgrade's moved deadline). */
  readonly replacedTimerIds?: readonly string[] | undefined;
}): TimerReconciliation {
  const { awaiting, firedTimerId } = input;
  const replaced = new Set(input.replacedTimerIds);
  const awaited = (timer: TimerRow): boolean =>
    awaiting !== null && timer.step === awaiting.step && timer.attempt === awaiting.attempt;
  const existing = input.existing.filter((timer) => timer.id !== firedTimerId);
  const kept = (timer: TimerRow): boolean => awaited(timer) && !replaced.has(timer.id);
  return {
    schedule: input.planned.filter(awaited),
    cancel: existing.filter((timer) => !kept(timer)),
    keep: existing.filter(kept),
  };
}
