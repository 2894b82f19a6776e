import {
  FINAL_RUN_STATUSES,
  type AssetTrack,
  type PolicyState,
  type RunEnvironment,
} from '@programrun/dsl';
import type { JsonObject, Sha256Digest } from '@programrun/evidence';
import type { HandoffJobError } from '../store/handoff-job-spec.js';

/**
 * Every status of a run, the one list the store, the HTTP schemas and the list filters
 * read: `waiting` whenever `awaiting` is set, `suspended` while a live run of a restricted
 * scenario waits for its issuer activation; the last three are final.
 *
 * @example
 * ```ts
 * RUN_STATUSES.includes('waiting'); // true
 * ```
 */
export const RUN_STATUSES = [
  'pending',
  'running',
  'waiting',
  'suspended',
  ...FINAL_RUN_STATUSES,
] as const;

/** Status of a run (see {@link RUN_STATUSES}). */
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * Final statuses: nothing changes a run after them.
 *
 * @example
 * ```ts
 * if (FINAL_STATUSES.has(run.status)) console.log('finished');
 * ```
 */
export const FINAL_STATUSES: ReadonlySet<RunStatus> = new Set(FINAL_RUN_STATUSES);

/** What a waiting run waits for. */
export interface AwaitingRecord {
  readonly kind: 'approval' | 'handoff' | 'timer';
  readonly step: string;
  /** ISO time the step times out, expires or (for timers) fires; null when none. */
  readonly deadline: string | null;
  /** The party holding the step: the partner for handoffs. */
  readonly party: string | null;
  /** Who may decide, for approvals. */
  readonly approvers: readonly string[] | null;
  readonly quorum: number | null;
  /** Distinct approvals so far, for approvals. */
  readonly approvals: number | null;
  /**
   * The decisions on the awaited step so far, oldest first, for approvals (and policy
   * reviews); null for handoffs and timers.
   */
  readonly decisions: readonly AwaitingDecision[] | null;
  /**
   * Where the handoff's job stands, when the awaited handoff has one (the sandbox's in
   * test, a connector's in live). Read time only: `getRun` adds it, it is never stored and
   * never in webhook bodies.
   */
  readonly handoff_job?: AwaitingHandoffJob;
}

/**
 * One decision on an awaited approval: who decided (the authenticated actor), how, the
 * label and note they gave, and when. Never the credential it came with.
 *
 * @example
 * ```ts
 * const run = await engine.getRun(scope, 'prun_123');
 * for (const { actor, decision, at } of run.awaiting?.decisions ?? []) console.log(at, actor, decision);
 * ```
 */
export interface AwaitingDecision {
  readonly actor: string;
  readonly decision: 'approve' | 'reject';
  /** How the decider named themselves (free text); null when they gave none. */
  readonly label: string | null;
  readonly note: string | null;
  readonly at: string;
}

/**
 * Where the job of an awaited handoff stands: `queued` (to be called at
 * `next_attempt_at`, or in flight), `accepted` (the partner will call back) or
 * `exhausted` (no retry fits before the deadline; the step's timeout decides).
 *
 * @example
 * ```ts
 * const run = await engine.getRun(scope, 'prun_123');
 * const job = run.awaiting?.handoff_job;
 * if (job?.last_error) console.log(`call ${job.attempts} failed: ${job.last_error.class}`);
 * ```
 */
export interface AwaitingHandoffJob {
  readonly status: 'queued' | 'accepted' | 'exhausted';
  /** Calls made so far. */
  readonly attempts: number;
  /** When the next call is due (the environment's clock); null unless queued. */
  readonly next_attempt_at: string | null;
  readonly last_error: HandoffJobError | null;
}

/** A stage as the run record shows it. */
export interface StageRecord {
  readonly id: string;
  readonly title: string;
  /** `skipped` when the run completed without entering the stage (a route jumped past it). */
  readonly status: 'pending' | 'active' | 'completed' | 'skipped' | 'faulted' | 'cancelled';
  readonly started_at: string | null;
  readonly completed_at: string | null;
}

/** An operating party in the run's posture. */
export interface PosturePartyRecord {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  readonly kind: 'appointed' | 'operator' | 'customer';
  /**
   * Whether the party's stage runs for real (`live`), in the sandbox, or is not live yet;
   * `degraded` (read time only) while this host's circuit breaker for its connector is open.
   */
  readonly status: 'live' | 'simulated' | 'not_live' | 'degraded';
  readonly steps: readonly string[];
  readonly stages: readonly string[];
}

/** A route choice in the posture (bridge-route and money-form posture). */
export interface PostureRouteRecord {
  readonly step: string;
  readonly selected: string | null;
  readonly reason: string | null;
}

/**
 * Whether the run needed an issuer activation (live runs of `restricted` scenarios) and
 * whether the account has it: `pending` while the run waits `suspended` in intake.
 */
export interface ActivationPosture {
  readonly required: boolean;
  readonly status: 'not_required' | 'pending' | 'active';
  /** The issuer's reference of the activation the run started under. */
  readonly reference: string | null;
  readonly activated_at: string | null;
}

/** The operating posture of a run. */
export interface PostureRecord {
  readonly environment: RunEnvironment;
  readonly asset_track: AssetTrack;
  /** `simulated` in test; `partner_executed` in live; `not_executable` when a track cannot run live. */
  readonly execution: 'simulated' | 'partner_executed' | 'not_executable';
  /** Issuer activation of the account for this scenario (restricted track, live). */
  readonly activation: ActivationPosture;
  readonly parties: readonly PosturePartyRecord[];
  readonly routes: readonly PostureRouteRecord[];
}

/** How a run that did not complete ended. */
export interface OutcomeRecord {
  readonly status: 'faulted' | 'cancelled';
  readonly step: string | null;
  readonly reason: string;
  readonly message: string | null;
}

/** A version of a scenario, as an upgrade names each side. */
export interface ScenarioVersion {
  readonly scenario_id: string;
  readonly scenario_digest: Sha256Digest;
}

/** One move of a waiting run to a new version of its scenario (`engine.upgradeRuns`). */
export interface RunUpgradeRecord {
  /** The sequence of its `program_run.upgraded` record: earlier records are of `from`. */
  readonly sequence: number;
  readonly upgraded_at: string;
  /**
   * Who moved the run: the actor the upgrade named (an operator, e.g. `ops:alice`), as
   * its `program_run.upgraded` record says.
   */
  readonly upgraded_by: string;
  readonly from: ScenarioVersion;
  readonly to: ScenarioVersion;
  /** The old version's step the run waited at, and the new version's it waits at since. */
  readonly state: string;
  readonly maps_to: string;
}

/** The `program_run` object: the HTTP representation of a run. */
export interface RunRecord {
  readonly object: 'program_run';
  readonly id: string;
  readonly livemode: boolean;
  readonly scenario_id: string;
  readonly scenario_digest: Sha256Digest;
  readonly status: RunStatus;
  readonly stage: string | null;
  readonly awaiting: AwaitingRecord | null;
  readonly outcome: OutcomeRecord | null;
  readonly session_id: string | null;
  readonly source_path: string | null;
  readonly inputs: JsonObject;
  readonly posture: PostureRecord;
  readonly policy: PolicyState;
  readonly stages: readonly StageRecord[];
  readonly evidence: { readonly chain_head: Sha256Digest | null; readonly exportable: boolean };
  readonly created_at: string;
  readonly updated_at: string;
  readonly completed_at: string | null;
  /** The versions the run moved through, oldest first; present once it was upgraded. */
  readonly upgrades?: readonly RunUpgradeRecord[] | undefined;
}
