import type { PersistedSnapshot, RunEnvironment } from '@programrun/dsl';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { AwaitingRecord, RunRecord, RunStatus } from '../runs/run-record.js';

/** Every object belongs to one account in one environment; stores never mix them. */
export interface Scope {
  readonly account: string;
  readonly environment: RunEnvironment;
}

/** One page of a list. */
export interface Page<T> {
  readonly data: readonly T[];
  readonly has_more: boolean;
}

/** A run as stored: the public record kept current, plus what the engine needs to resume. */
export interface StoredRun {
  readonly id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  /** Incremented by every committed transition; updates compare-and-swap on it. */
  readonly version: number;
  readonly scenario_id: string;
  readonly status: RunStatus;
  /** ISO time, for ordering and filtering lists. */
  readonly created_at: string;
  /** The `Idempotency-Key` that created the run, unique per scope. */
  readonly idempotency_key: string | null;
  /** The machine's state; null while the run waits `suspended` before its machine started. */
  readonly snapshot: PersistedSnapshot | null;
  /** Sequence of the last lifecycle record. */
  readonly last_sequence: number;
  /** The public representation, recomputed on every transition. */
  readonly record: RunRecord;
  /**
   * W3C `traceparent` of the span that created the run: later spans of the run join its trace. Optional in
   * store spec v1 (a store that drops it loses only trace continuity); null when no tracer
   * was recording.
   */
  readonly trace_context?: string | null;
}

/** How many runs of one version of a scenario are in one status (`countRunsByVersion`). */
export interface VersionStatusCount {
  readonly scenario_id: string;
  readonly status: RunStatus;
  readonly count: number;
}

/**
 * Filters of a run list, all of which a run must pass; results are newest first.
 *
 * `stage`, `awaiting` and `q` read the stored `record` (and `idempotency_key`). They came
 * after the other filters and a store may ignore them: the engine re-checks every run a
 * store lists against the whole query (`runMatchesQuery`) and reads on until its page
 * is full, so such a store answers the same runs, only slower (it reads runs that do not
 * match). The contract suite checks that a store applies them itself; the SQL stores do
 * with indexes.
 */
export interface RunQuery {
  readonly scenario_id?: string;
  readonly status?: RunStatus;
  /** ISO lower bound (inclusive) of `created_at`. */
  readonly created_gte?: string;
  /** ISO upper bound (exclusive) of `created_at`. */
  readonly created_lt?: string;
  /** Only runs whose current stage (`record.stage`) is this stage id. */
  readonly stage?: string;
  /** Only runs waiting on this kind of step (`record.awaiting.kind`). */
  readonly awaiting?: AwaitingRecord['kind'];
  /**
   * Only runs where this is, exactly, the run id, `record.session_id`, the
   * `idempotency_key` that created the run, or `record.source_path`.
   */
  readonly q?: string;
  /** Return runs after this run id in list order. */
  readonly starting_after?: string;
  readonly limit: number;
}

/** Runs and their lifecycle records. None of these take locks beyond the row they write. */
export interface RunOperations {
  getRun(scope: Scope, id: string): Promise<StoredRun | undefined>;
  findRunByIdempotencyKey(scope: Scope, key: string): Promise<StoredRun | undefined>;
  /** Inserts a new run; throws a `duplicate_key` StoreError if the id or idempotency key exists. */
  insertRun(run: StoredRun): Promise<void>;
  /** Replaces a run if its stored version is `expectedVersion`; else throws `version_conflict`. */
  updateRun(run: StoredRun, expectedVersion: number): Promise<void>;
  listRuns(scope: Scope, query: RunQuery): Promise<Page<StoredRun>>;
  /**
   * The scope's runs of every version of the scenario `name` (ids `name@v…`), counted by
   * version and status; no row for a count of zero. Every store passing the contract has
   * it; optional in store spec v1 so that a store written before it still compiles
   * (without it, the engine counts by listing the runs).
   */
  countRunsByVersion?(scope: Scope, name: string): Promise<VersionStatusCount[]>;

  /** Appends records; throws `duplicate_key` if a (run, sequence) exists. */
  appendRecords(scope: Scope, records: readonly LifecycleRecord[]): Promise<void>;
  /** Records of one run in sequence order, after `afterSequence`. */
  listRecords(
    scope: Scope,
    runId: string,
    options?: { afterSequence?: number; limit?: number },
  ): Promise<LifecycleRecord[]>;
}
