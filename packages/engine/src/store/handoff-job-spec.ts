import type { RunEnvironment } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';

/**
 * Where a handoff job stands:
 * - `queued`: to be called at `next_attempt_at` (a call is in flight while its lease holds);
 * - `accepted`: the partner took the request and will answer through the callback;
 * - `exhausted`: no retry fits before the step's deadline; the step's timeout decides;
 * - `closed`: the run no longer waits on this handoff (answered, timed out, cancelled).
 */
export type HandoffJobStatus = 'queued' | 'accepted' | 'exhausted' | 'closed';

/** Why the last call of a job failed, as the worker saw it. */
export interface HandoffJobError {
  /** `timeout`, `connection`, `http_5xx`, `rate_limited`, `in_progress`, `invalid_answer`, `thrown`, … */
  readonly class: string;
  readonly message: string;
  /** The partner's HTTP status, when it answered. */
  readonly status: number | null;
  /** Wall-clock ISO time of the failure. */
  readonly at: string;
}

/**
 * A durable handoff job: one per handoff request (run, step, attempt) whose party has a
 * connector, written in the same transaction as the transition that requested it. Workers
 * on every host claim due jobs under a lease and call the party's connector with the same
 * `pik_…` key on every call.
 */
export interface HandoffJobRow {
  /** `hjob_…`, derived from run, step and attempt. */
  readonly id: string;
  readonly run_id: string;
  readonly account: string;
  readonly environment: RunEnvironment;
  /** The appointed partner (a party of the scenario): whose connector and limits apply. */
  readonly party: string;
  readonly step: string;
  /** The handoff's attempt (a scenario retry of the step is a new job with a new key). */
  readonly attempt: number;
  /** `pik_…`: the partner's idempotency key, the same on every call. */
  readonly idempotency_key: string;
  /** The `HandoffRequest` the connector receives, as JSON. */
  readonly request: JsonObject;
  /** When the step times out, on the environment's clock: no call outlives it. */
  readonly deadline: string;
  readonly status: HandoffJobStatus;
  /** Calls started so far (a claim counts one). */
  readonly calls: number;
  /** When the job may next be called, on the environment's clock. */
  readonly next_attempt_at: string;
  /** The worker holding the call in flight; null when none. */
  readonly lease_owner: string | null;
  /** Wall-clock ISO time the lease ends; a call never outlives it. Null when not leased. */
  readonly lease_until: string | null;
  readonly last_error: HandoffJobError | null;
  /**
   * W3C `traceparent` of the run's trace (its creating span): later spans of the run join its trace. Optional in
   * store spec v1 (a store that drops it loses only trace continuity); null when no tracer
   * was recording.
   */
  readonly trace_context?: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** Selects handoff jobs: one environment, optionally one account or one party. */
export interface HandoffJobQuery {
  readonly environment: RunEnvironment;
  /** Only this account's jobs (test clocks are per account). */
  readonly account?: string;
  /** Only this party's jobs. */
  readonly party?: string;
}

/**
 * A worker's claim: due queued jobs whose lease is free, leased to `owner`, each claimed
 * job's `calls` incremented.
 *
 * A job is *in flight* while it is queued with a lease that has not ended at `lease_now`,
 * unless the claim names it in `ended` (its owner's call is over).
 * With `max_in_flight` (which needs `party`), the claim never leaves more than that many of
 * the party's jobs in flight in the environment, counting every host's leases; claims of
 * one (environment, party) are serialized across transactions, so two hosts claiming at
 * once cannot both take the last slot. With `max_per_account`, an account with `a` jobs in
 * flight takes at most `max_per_account − a` more.
 *
 * Accounts take turns: the job ranked `r` (earliest due first, ties by id) among its
 * account's due jobs is on turn `a + r`, and the claim takes the lowest turns first. Ties
 * between equal turns go to the account whose last claim of this (environment, party) is
 * oldest (an account the party never served first), then to the earliest due, then to the
 * id. The store remembers each (environment, party, account)'s last claim as a claim
 * sequence (not a time), written in the claim's transaction for every account that got a
 * job, in the order their turns ended in the claim. So one account's backlog never fills
 * a claim while another account has a due job, and at any concurrency, even 1, another
 * account's single job is taken by the first claim after a call ends: accounts with due
 * jobs are served round robin. A claim naming no `party` (the sandbox's, per account)
 * neither reads nor writes that memory: its ties go to the earliest due, then the id.
 */
export interface HandoffJobClaim extends HandoffJobQuery {
  /** Jobs due at or before this (the environment's clock). */
  readonly due_at: string;
  /** Now on the wall clock: leases that ended before it are free. */
  readonly lease_now: string;
  /** Wall-clock ISO time until which the claimed jobs are held. */
  readonly lease_until: string;
  /** Who holds the lease (a worker id), checked again when the call's result is written. */
  readonly owner: string;
  readonly limit: number;
  readonly max_in_flight?: number;
  readonly max_per_account?: number;
  /**
   * Jobs leased to `owner` whose calls are over while their results are being written:
   * their leases still hold (the settle is fenced on them, and they are not claimed), but
   * they are not in flight for this claim's `max_in_flight` and `max_per_account`. Ids of
   * jobs another owner holds count as usual.
   */
  readonly ended?: readonly string[];
}

/** What the workers of an environment have per party, for `GET /v1/partners`. */
export interface HandoffPartyLoad {
  readonly party: string;
  /** Calls in flight now (queued with a live lease), across hosts. */
  readonly in_flight: number;
  /** Queued jobs not in flight (due or waiting for a retry). */
  readonly queued: number;
  /** Jobs the partner accepted and will answer through the callback. */
  readonly accepted: number;
  /** Jobs with no retry left before their deadline. */
  readonly exhausted: number;
  /** Earliest `next_attempt_at` of the queued jobs not in flight; null when none. */
  readonly next_attempt_at: string | null;
}

/** Durable handoff jobs: what the connectors' workers claim and settle. */
export interface HandoffJobOperations {
  /** Inserts jobs; throws `duplicate_key` when an id exists. */
  insertHandoffJobs(jobs: readonly HandoffJobRow[]): Promise<void>;
  /** The jobs of one run, any status, by (step, attempt). */
  handoffJobsOfRun(runId: string): Promise<HandoffJobRow[]>;
  /** Leases due jobs as {@link HandoffJobClaim} says; returns them earliest due first (ties by id). */
  claimHandoffJobs(claim: HandoffJobClaim): Promise<HandoffJobRow[]>;
  /**
   * Replaces a job if its stored `lease_owner` and `calls` are those of `expected` (the
   * worker still holds the call it is settling); else throws `version_conflict`.
   */
  updateHandoffJob(
    job: HandoffJobRow,
    expected: { readonly lease_owner: string | null; readonly calls: number },
  ): Promise<void>;
  /**
   * Closes the run's open jobs (`queued`, `accepted`, `exhausted`) except those whose id is
   * in `keep`: the run no longer waits on them. Sets `status: closed`, clears the lease.
   */
  closeHandoffJobs(runId: string, keep: readonly string[], at: string): Promise<void>;
  /** Earliest `next_attempt_at` of the queued jobs matching `query`, if any. */
  nextHandoffJob(query: HandoffJobQuery): Promise<string | undefined>;
  /**
   * Per party with any open job matching `query` (an account's own, or the environment's
   * across accounts), its load at `leaseNow` (wall clock), by party. The jobs named in
   * `ended` (the caller's leased jobs whose calls are over, their results being written)
   * are neither in flight nor queued, as a claim naming them in `ended` counts them.
   */
  handoffPartyLoads(
    query: HandoffJobQuery,
    leaseNow: string,
    ended?: readonly string[],
  ): Promise<HandoffPartyLoad[]>;
}
