import type {
  HandoffJobClaim,
  HandoffJobOperations,
  HandoffJobQuery,
  HandoffJobRow,
  HandoffPartyLoad,
} from './handoff-job-spec.js';
import {
  byNextAttemptThenId,
  chooseHandoffClaim,
  inFlight,
  matchesQuery,
  servedAccounts,
  type PartyTurns,
} from './memory-handoff-job-claim.js';
import { ascending } from './memory-state.js';
import { StoreError } from './store-error.js';
import type { UndoLog } from './undo-log.js';

/** The memory store's handoff job tables. */
export interface MemoryHandoffJobState {
  readonly jobs: Map<string, HandoffJobRow>;
  /** Job ids of each run, in insertion order. */
  readonly jobsByRun: Map<string, readonly string[]>;
  /** Jobs not closed (queued, accepted, exhausted): what claims and loads scan. */
  readonly open: Map<string, HandoffJobRow>;
  /**
   * The memory of turns: the last claim of each (environment, party, account) by a claim
   * naming its party, keyed by {@link turnKey}; a claim sequence of the party.
   */
  readonly turns: Map<string, number>;
  /** The last claim sequence of each (environment, party), keyed by {@link turnKey}. */
  readonly turnTops: Map<string, number>;
}

/** Empty handoff job tables. */
export function emptyHandoffJobState(): MemoryHandoffJobState {
  return {
    jobs: new Map(),
    jobsByRun: new Map(),
    open: new Map(),
    turns: new Map(),
    turnTops: new Map(),
  };
}

/** The key of an (environment, party) or (environment, party, account) in the turns. */
const turnKey = (...parts: readonly string[]): string => JSON.stringify(parts);

/** Loads of one party, counted as jobs are seen. */
interface LoadTally {
  in_flight: number;
  queued: number;
  accepted: number;
  exhausted: number;
  next_attempt_at: string | null;
}

/**
 * The handoff job tables of the memory store. Writes go through the current
 * transaction's undo log; transactions run one at a time, so claims are serialized.
 */
export function memoryHandoffJobTables(
  state: MemoryHandoffJobState,
  undo: () => UndoLog,
): HandoffJobOperations {
  const write = (job: HandoffJobRow): void => {
    undo().set(state.jobs, job.id, job);
    if (job.status === 'closed') undo().delete(state.open, job.id);
    else undo().set(state.open, job.id, job);
  };
  return {
    insertHandoffJobs(jobs: readonly HandoffJobRow[]): Promise<void> {
      for (const job of jobs) {
        if (state.jobs.has(job.id)) {
          throw new StoreError('duplicate_key', `handoff job ${job.id} exists`);
        }
        write(job);
        undo().set(state.jobsByRun, job.run_id, [
          ...(state.jobsByRun.get(job.run_id) ?? []),
          job.id,
        ]);
      }
      return Promise.resolve();
    },

    handoffJobsOfRun(runId: string): Promise<HandoffJobRow[]> {
      const jobs = (state.jobsByRun.get(runId) ?? []).map((id) => state.jobs.get(id)!);
      return Promise.resolve(
        jobs.sort((a, b) => ascending(a.step, b.step) || a.attempt - b.attempt),
      );
    },

    claimHandoffJobs(claim: HandoffJobClaim): Promise<HandoffJobRow[]> {
      const { environment, party } = claim;
      const turns: PartyTurns | undefined =
        party === undefined
          ? undefined
          : { lastClaim: (account) => state.turns.get(turnKey(environment, party, account)) };
      const taken = chooseHandoffClaim(state.open.values(), claim, turns);
      if (party !== undefined && taken.length > 0) {
        // Each served account's last claim, in the order its turn ended in this claim.
        const top = state.turnTops.get(turnKey(environment, party)) ?? 0;
        const served = servedAccounts(taken);
        served.forEach((account, index) =>
          undo().set(state.turns, turnKey(environment, party, account), top + index + 1),
        );
        undo().set(state.turnTops, turnKey(environment, party), top + served.length);
      }
      const claimed = taken.sort(byNextAttemptThenId).map((job) => ({
        ...job,
        calls: job.calls + 1,
        lease_owner: claim.owner,
        lease_until: claim.lease_until,
      }));
      for (const job of claimed) write(job);
      return Promise.resolve(claimed);
    },

    updateHandoffJob(
      job: HandoffJobRow,
      expected: { readonly lease_owner: string | null; readonly calls: number },
    ): Promise<void> {
      const current = state.jobs.get(job.id);
      if (!current) throw new StoreError('not_found', `handoff job ${job.id} does not exist`);
      if (current.lease_owner !== expected.lease_owner || current.calls !== expected.calls) {
        throw new StoreError(
          'version_conflict',
          `handoff job ${job.id} is at call ${current.calls} held by ${String(current.lease_owner)}, ` +
            `not call ${expected.calls} held by ${String(expected.lease_owner)}`,
        );
      }
      write(job);
      return Promise.resolve();
    },

    closeHandoffJobs(runId: string, keep: readonly string[], at: string): Promise<void> {
      for (const id of state.jobsByRun.get(runId) ?? []) {
        const job = state.open.get(id);
        if (!job || keep.includes(id)) continue;
        write({ ...job, status: 'closed', lease_owner: null, lease_until: null, updated_at: at });
      }
      return Promise.resolve();
    },

    nextHandoffJob(query: HandoffJobQuery): Promise<string | undefined> {
      let next: string | undefined;
      for (const job of state.open.values()) {
        if (job.status !== 'queued' || !matchesQuery(job, query)) continue;
        if (next === undefined || job.next_attempt_at < next) next = job.next_attempt_at;
      }
      return Promise.resolve(next);
    },

    handoffPartyLoads(
      query: HandoffJobQuery,
      leaseNow: string,
      ended: readonly string[] = [],
    ): Promise<HandoffPartyLoad[]> {
      const over = new Set(ended);
      const loads = new Map<string, LoadTally>();
      for (const job of state.open.values()) {
        if (!matchesQuery(job, query)) continue;
        let load = loads.get(job.party);
        if (!load) {
          load = { in_flight: 0, queued: 0, accepted: 0, exhausted: 0, next_attempt_at: null };
          loads.set(job.party, load);
        }
        if (job.status === 'accepted') load.accepted += 1;
        else if (job.status === 'exhausted') load.exhausted += 1;
        else if (inFlight(job, leaseNow)) {
          if (!over.has(job.id)) load.in_flight += 1;
        } else {
          load.queued += 1;
          if (load.next_attempt_at === null || job.next_attempt_at < load.next_attempt_at)
            load.next_attempt_at = job.next_attempt_at;
        }
      }
      return Promise.resolve(
        [...loads.entries()]
          .sort(([a], [b]) => ascending(a, b))
          .map(([party, load]) => ({ party, ...load })),
      );
    },
  };
}
