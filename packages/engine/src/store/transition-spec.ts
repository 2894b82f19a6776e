import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { HandoffJobRow } from './handoff-job-spec.js';
import type { Scope, StoredRun } from './run-spec.js';
import type { TestClockRow, TimerRow } from './timer-spec.js';

/** Everything a transition reads before the machine runs: one round trip on SQL stores. */
export interface RunForTransition {
  readonly run: StoredRun;
  /** The run's pending timers, in due order (as `pendingTimers` lists them). */
  readonly pendingTimers: readonly TimerRow[];
  /** The account's test clock; undefined in live or when the clock never moved. */
  readonly testClock: TestClockRow | undefined;
  /**
   * True when the store answered with no read, from the run as it last wrote and saw it
   * committed (a SQL store's own live runs). Such a run may be behind another host's
   * write: a write made from it still holds only if the run is at its version (the
   * compare-and-swap), and the engine reads the run again (a `version_conflict` retry)
   * rather than refuse an event on it.
   */
  readonly cached?: boolean;
}

/**
 * The next row of the handoff job whose call a transition settles, written only while the
 * settling worker still holds the call: the stored job's `lease_owner` and `calls` are
 * those of `expected` (what its claim returned).
 */
export interface HandoffJobSettle {
  readonly job: HandoffJobRow;
  readonly expected: { readonly lease_owner: string | null; readonly calls: number };
}

/**
 * Everything one transition writes, applied all or nothing: the run (inserted, or updated
 * by compare-and-swap on its version), its new lifecycle records and the outbox event of
 * each (`lifecycleEventRows(run, records)`: same id, a body derived from the record alone,
 * fanned out to one pending delivery per enabled endpoint of the scope subscribed to its
 * type), timers scheduled and settled, handoff jobs closed and queued, and the settled
 * job's next row.
 */
export interface TransitionWrite {
  readonly scope: Scope;
  readonly run: StoredRun;
  /** The version the stored run must be at; null to insert a new run. */
  readonly expectedVersion: number | null;
  /** The new records, in sequence order; each is also an outbox event. */
  readonly records: readonly LifecycleRecord[];
  /** When the events' deliveries fall due (the environment's base clock). */
  readonly deliveriesDueAt: string;
  readonly scheduleTimers: readonly TimerRow[];
  /** Pending timers that no longer apply, settled `cancelled` (they leave the pending set). */
  readonly cancelTimers: readonly string[];
  /** The timer whose firing this transition is, settled `fired`; null for none. */
  readonly firedTimer: string | null;
  /** Close the run's open handoff jobs except `keep` (null: leave them). */
  readonly closeHandoffJobs: { readonly keep: readonly string[]; readonly at: string } | null;
  readonly insertHandoffJobs: readonly HandoffJobRow[];
  /**
   * The job whose call this transition settles, fenced on its lease; null for none (always
   * for a new run: a job belongs to a run that exists).
   */
  readonly settleHandoffJob: HandoffJobSettle | null;
}

/** What {@link TransitionOperations.writeTransition} wrote that its caller acts on. */
export interface TransitionWritten {
  /** Deliveries queued for the events (0 when no endpoint subscribes). */
  readonly deliveries: number;
}

/**
 * A transition's read and write as one operation each, so a SQL store spends one round
 * trip on each: the unit of work of the engine is `loadRunForTransition`, then
 * `writeTransition`, which in a single-write transaction commits by itself.
 */
export interface TransitionOperations {
  /** The run of the scope with its pending timers and the account's test clock. */
  loadRunForTransition(scope: Scope, id: string): Promise<RunForTransition | undefined>;
  /**
   * Applies `write` whole: with `expectedVersion` set and the stored run at another
   * version, writes nothing and throws a `version_conflict` StoreError; a new run whose
   * id or idempotency key exists throws `duplicate_key`. A `settleHandoffJob` whose job is
   * no longer held as expected (or no longer exists) throws `lease_lost` and writes nothing
   * either (a run not at `expectedVersion` is a `version_conflict` first).
   */
  writeTransition(write: TransitionWrite): Promise<TransitionWritten>;
}

/**
 * Refuses a write whose run is not of its scope: every part of a transition (the run, its
 * records and events, the endpoints its deliveries go to) belongs to one account and
 * environment, so no write can fan one tenant's events out to another's endpoints.
 *
 * @example
 * ```ts
 * assertOneScope(write); // throws a TypeError when write.run is of another scope
 * ```
 */
export function assertOneScope(write: TransitionWrite): void {
  const { scope, run } = write;
  if (run.account !== scope.account || run.environment !== scope.environment)
    throw new TypeError(
      `writeTransition: run ${run.id} is of ${run.account}/${run.environment}, not of the write's scope ${scope.account}/${scope.environment}`,
    );
}

/**
 * Refuses a write that no store may apply: a run of another scope than the write's
 * ({@link assertOneScope}), a record, timer or handoff job of another run than the
 * write's, or a new run that settles a handoff job.
 *
 * @example
 * ```ts
 * assertTransitionWrite(write); // throws a TypeError for a write no store may apply
 * ```
 */
export function assertTransitionWrite(write: TransitionWrite): void {
  assertOneScope(write);
  const runId = write.run.id;
  const foreign = [
    ...write.records,
    ...write.scheduleTimers,
    ...write.insertHandoffJobs,
    ...(write.settleHandoffJob ? [write.settleHandoffJob.job] : []),
  ].find((part) => part.run_id !== runId);
  if (foreign)
    throw new TypeError(
      `writeTransition: run ${runId} writes a part of run ${foreign.run_id}; every part of a write is its run's`,
    );
  if (write.expectedVersion === null && write.settleHandoffJob !== null)
    throw new TypeError(
      `writeTransition: new run ${write.run.id} settles handoff job ${write.settleHandoffJob.job.id}; a job belongs to a run that exists`,
    );
}
