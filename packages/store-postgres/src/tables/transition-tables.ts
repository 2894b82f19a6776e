import {
  assertTransitionWrite,
  type RunForTransition,
  type Scope,
  type StoredRun,
  type StoreTransactionV1,
  type TestClockRow,
  type TimerRow,
  type TransitionWrite,
} from '@programrun/engine';
import { PREPARED_READ, type SqlExecutor } from '../sql/sql-database.js';
import { RUN_COLUMNS } from './run-tables.js';
import { TIMER_COLUMNS } from './timer-tables.js';
import type { RunCache } from './run-cache.js';
import { withTraceContext } from './trace-context-column.js';
import { writeError, type WriteOutcome } from './transition-write-statement.js';

type TransitionTables = Pick<StoreTransactionV1, 'loadRunForTransition' | 'writeTransition'>;

/** The runs a transaction's operations may take from, and tell of what they read and wrote. */
export interface TransitionRuns {
  readonly cache: RunCache;
  /**
   * The cached run `id` of `scope` a transition may take with no read (`RunCache.transition`),
   * unless the running transaction wrote it already.
   */
  take(scope: Scope, id: string): RunForTransition | undefined;
  /**
   * Notes a run read in the running transaction with its pending timers (`cached`: taken
   * from the cache, which forgets it unless the transaction writes it and commits).
   */
  read(id: string, pendingTimers: readonly TimerRow[], cached: boolean): void;
  /** The pending timers the running transaction read with run `id`, if it read it. */
  pendingTimersRead(id: string): readonly TimerRow[] | undefined;
  /**
   * Notes a run written in the running transaction, with its pending timers after the
   * write when known (cached once it commits).
   */
  written(run: StoredRun, pendingTimers: readonly TimerRow[] | undefined): void;
  /**
   * Sends the transaction's transition write: alone through `sql`, or, in a single-write
   * unit of work that may be batched, with other runs' writes in one statement.
   */
  send(sql: SqlExecutor, write: TransitionWrite): Promise<WriteOutcome>;
}

/** The run columns, with the documents left out (NULL) when the row is at `$4`. */
const RUN_COLUMNS_UNLESS_AT = RUN_COLUMNS.split(', ')
  .map((column) =>
    column === 'snapshot' || column === 'record'
      ? `CASE WHEN r.version = $4 THEN NULL ELSE r.${column} END AS ${column}`
      : `r.${column}`,
  )
  .join(', ');

/** A run row read with its pending timers and its account's test clock. */
type RunWithState = StoredRun & {
  readonly pending_timers: TimerRow[];
  readonly test_clock: TestClockRow | null;
};

/**
 * A transition in two statements. The read takes the run, its pending timers and its
 * account's test clock in one round trip; the write is one statement whose first part is
 * the run's compare-and-swap (or insert) and whose other parts (records, their outbox
 * events fanned out to the subscribed endpoints, timers, handoff jobs) write only when
 * that part wrote the run, so a conflict writes nothing and the write is one round trip.
 */
export function transitionTables(
  sql: SqlExecutor,
  schema: string,
  runs: TransitionRuns,
): TransitionTables {
  return {
    async loadRunForTransition(scope, id): Promise<RunForTransition | undefined> {
      // A live run this host wrote last, with its timers, is taken with no read at all.
      const taken = runs.take(scope, id);
      if (taken) {
        runs.read(id, taken.pendingTimers, true);
        return taken;
      }
      // Any other run this host wrote last is read without its documents (the cached run's).
      const cached = runs.cache.get(scope, id);
      const { rows } = await sql.query<RunWithState>(
        `SELECT ${RUN_COLUMNS_UNLESS_AT},
           (SELECT coalesce(json_agg(t ORDER BY t.due_at, t.id), '[]')
              FROM (SELECT ${TIMER_COLUMNS} FROM ${schema}.timers
                    WHERE run_id = r.id AND status = 'pending') t) AS pending_timers,
           (SELECT json_build_object('account', c.account, 'offset_ms', c.offset_ms,
                     'updated_at', c.updated_at)
              FROM ${schema}.test_clocks c
              WHERE c.account = r.account AND r.environment = 'test') AS test_clock
         FROM ${schema}.runs r WHERE r.id = $1 AND r.account = $2 AND r.environment = $3`,
        [id, scope.account, scope.environment, cached?.version ?? 0],
        PREPARED_READ,
      );
      const row = withTraceContext(rows)[0];
      if (!row) return undefined;
      const { pending_timers: pendingTimers, test_clock: testClock, ...stored } = row;
      const run = cached && stored.version === cached.version ? cached : stored;
      runs.read(id, pendingTimers, false);
      return { run, pendingTimers, testClock: testClock ?? undefined };
    },

    async writeTransition(write: TransitionWrite) {
      assertTransitionWrite(write);
      const outcome = await runs.send(sql, write);
      const error = writeError(write, outcome);
      if (error) throw error;
      runs.written(write.run, pendingTimersAfter(write, runs.pendingTimersRead(write.run.id)));
      return { deliveries: outcome.deliveries };
    },
  };
}

/** Due order, as the read lists pending timers (`ORDER BY due_at, id`). */
const dueOrder = (a: TimerRow, b: TimerRow): number =>
  a.due_at === b.due_at ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.due_at < b.due_at ? -1 : 1;

/**
 * The run's pending timers once `write` is applied: a new run's are the timers it
 * schedules; a run read before (`before`) keeps those the write neither cancels nor fires
 * and adds those it schedules. Undefined when the timers before are not known.
 */
export function pendingTimersAfter(
  write: TransitionWrite,
  before: readonly TimerRow[] | undefined,
): TimerRow[] | undefined {
  if (write.expectedVersion !== null && before === undefined) return undefined;
  const settled = new Set(write.cancelTimers);
  if (write.firedTimer !== null) settled.add(write.firedTimer);
  const kept = (before ?? []).filter((timer) => !settled.has(timer.id));
  const scheduled = write.scheduleTimers.filter((timer) => timer.status === 'pending');
  return [
    ...kept.filter((timer) => !scheduled.some((next) => next.id === timer.id)),
    ...scheduled,
  ].sort(dueOrder);
}
