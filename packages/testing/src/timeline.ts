import type { RunContext } from '@programrun/dsl';
import type { AwaitingRecord, LifecycleRecord, RunStatus } from '@programrun/engine';

/** A lifecycle record as a timeline shows it. */
export interface TimelineRecord {
  readonly sequence: number;
  readonly type: string;
  readonly stage: string | null;
  readonly step: string | null;
}

/**
 * What one action of a trace did: when it was applied on the virtual clock, what the
 * run waited on then, the signal or clock move, its outcome, the records it appended and
 * the run's state afterwards.
 */
export interface TimelineEntry {
  /** `create` for the run's creation, `plan` for a plan action, `drain` after the plan. */
  readonly phase: 'create' | 'plan' | 'drain';
  /** The action in words, e.g. `approve payer_approval as approver_3` or `expire (+31s)`. */
  readonly action: string;
  /** True for late and out-of-order partner answers, which the engine must never apply. */
  readonly stale: boolean;
  /** ISO virtual time at which the action was applied. */
  readonly at: string;
  /** What the run waited on when the action was applied. */
  readonly waited: AwaitingRecord | null;
  /**
   * `applied`, `duplicate` (acknowledged, nothing changed), `refused` (see `code`),
   * `clock` for a clock move, `none` when there was nothing to send.
   */
  readonly outcome: 'applied' | 'duplicate' | 'refused' | 'clock' | 'none';
  /** The refusal code when refused. */
  readonly code: string | null;
  /** Records appended by the action. */
  readonly records: readonly TimelineRecord[];
  /** The run afterwards. */
  readonly status: RunStatus;
  readonly stage: string | null;
  readonly awaiting: AwaitingRecord | null;
  /**
   * ISO due time of the run's earliest pending timer or simulated partner answer
   * afterwards; null when none.
   */
  readonly nextTimer: string | null;
  /** The machine context afterwards (what later expressions, such as money legs, read). */
  readonly context: RunContext | null;
}

/**
 * The timeline form of a lifecycle record.
 *
 * @example
 * ```ts
 * timelineRecord(record); // { sequence: 4, type: 'program_run.handoff.requested', stage: 'intake', step: 'screen' }
 * ```
 */
export function timelineRecord(record: LifecycleRecord): TimelineRecord {
  return { sequence: record.sequence, type: record.type, stage: record.stage, step: record.step };
}
