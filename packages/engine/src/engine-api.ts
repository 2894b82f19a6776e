import type { UpgradeRunsOptions, UpgradeRunsResult } from './upgrades/upgrade-runs.js';
import type { ScenarioVersionUsage } from './upgrades/version-usage.js';
import type { RunEnvironment } from '@programrun/dsl';
import type { DsseEnvelope, Jwks } from '@programrun/evidence';
import type { IssuerActivations } from './activation/activations.js';
import type { ScenarioCatalogue } from './catalogue/scenario-catalogue.js';
import type { AccessRequestInput, AccessRequestRecord } from './evidence/access-requests.js';
import type { Transaction } from './kernel/transaction.js';
import type { LifecycleRecord } from './lifecycle/lifecycle-record.js';
import type { CreateRunRequest, CreateRunResult, PreparedCreation } from './runs/create-run.js';
import type { RunRecord } from './runs/run-record.js';
import type { SignalResult } from './signals/apply-signal.js';
import type { Signal } from './signals/signal.js';
import type { Page, RunQuery, Scope } from './store/store-v1.js';
import type { Webhooks } from './webhooks/webhooks.js';
import type { HandoffWorkerOptions, HandoffWorkers } from './handoffs/handoff-workers.js';
import type { PartnerStatus } from './handoffs/partner-status.js';
import type { BackgroundWorkers } from './health/background-workers.js';
import type { Readiness, ReadinessOptions } from './health/readiness.js';

/**
 * One store transaction of a scope in which runs are created and signalled: what it writes
 * (runs, records, outbox rows, and rows the host writes with `tx`) commits together or not
 * at all. The whole work is retried on a concurrent update, so keep side effects in
 * `afterCommit`.
 */
export interface UnitOfWork extends Transaction {
  readonly scope: Scope;
  /**
   * Creates a run, or finds the one its idempotency key made. Pass what `engine.prepareRun`
   * returned to check the request once, before the transaction (a retry does not check again).
   */
  createRun(request: CreateRunRequest | PreparedCreation): Promise<CreateRunResult>;
  /** Applies a signal; a repeat of what is recorded answers `applied: false`. */
  signal(runId: string, signal: Signal): Promise<SignalResult>;
  /** Links a request-access lead to a session, in this unit of work. */
  createAccessRequest(
    input: AccessRequestInput,
  ): Promise<{ readonly accessRequest: AccessRequestRecord; readonly created: boolean }>;
  /** The webhook endpoints and events, read and written in this unit of work. */
  readonly webhooks: Omit<Webhooks, 'deliveries'>;
  /** The scope's current time (the live clock, or the account's test clock). */
  now(): Promise<Date>;
  /**
   * Due time of the scope's earliest pending timer or, in test, queued sandbox job, read
   * in this unit of work (as `engine.nextTimerDue`); null when there is none.
   */
  nextTimerDue(): Promise<string | null>;
}

/** The engine: creates runs, applies signals and fires timers, one store transaction each. */
export interface Engine {
  readonly scenarios: ScenarioCatalogue;
  /** Issuer activations that let live runs of restricted scenarios leave intake. */
  readonly activations: IssuerActivations;
  /** Webhook endpoints, the event list, redelivery, and the queue a dispatcher drains. */
  readonly webhooks: Webhooks;
  /**
   * Runs `work` as one unit of work in `scope`: one store transaction, retried whole on a
   * concurrent update; effects registered with `afterCommit` run once it committed.
   *
   * @example
   * ```ts
   * const answer = await engine.unitOfWork(scope, async (uow) => {
   *   const { run, created } = await uow.createRun({ scenario_id: 'wallet-delivery@v1', inputs, idempotency_key: key });
   *   uow.afterCommit(() => console.log('committed', run.id));
   *   return created ? 201 : 200;
   * });
   * ```
   */
  unitOfWork<T>(scope: Scope, work: (uow: UnitOfWork) => Promise<T>): Promise<T>;
  createRun(scope: Scope, request: CreateRunRequest): Promise<CreateRunResult>;
  /**
   * Checks a creation request without touching the store: the scenario exists, the inputs
   * are valid, the track may run in the scope. Throws what `createRun` would.
   *
   * @example
   * ```ts
   * const prepared = engine.prepareRun(scope, { scenario_id: 'wallet-delivery@v1', inputs });
   * await engine.unitOfWork(scope, (uow) => uow.createRun(prepared));
   * ```
   */
  prepareRun(scope: Scope, request: CreateRunRequest): PreparedCreation;
  getRun(scope: Scope, id: string): Promise<RunRecord>;
  listRuns(scope: Scope, query?: Partial<RunQuery>): Promise<Page<RunRecord>>;
  listEvents(
    scope: Scope,
    runId: string,
    options?: { afterSequence?: number; limit?: number },
  ): Promise<LifecycleRecord[]>;
  signal(scope: Scope, runId: string, signal: Signal): Promise<SignalResult>;
  /**
   * Fires every timer due in an environment (each account on its own clock); returns how
   * many fired. Once `options.signal` aborts (the host is stopping) it claims nothing more
   * and gives back the leases of the timers it claimed but did not fire.
   */
  runDueTimers(
    environment: RunEnvironment,
    options?: { readonly signal?: AbortSignal },
  ): Promise<number>;
  /**
   * Moves one account's test clock forward, firing each of its timers at its own due time
   * on the way. Other accounts' clocks and timers are untouched.
   */
  advanceTestClock(
    account: string,
    seconds: number,
  ): Promise<{ readonly now: string; readonly fired: number }>;
  /**
   * Moves one account's test clock to `target` (never backwards), firing due timers on the
   * way. Moving to a time the clock already reached changes nothing, so a retried advance
   * to a recorded target does not move time twice.
   */
  advanceTestClockTo(
    account: string,
    target: Date,
  ): Promise<{ readonly now: string; readonly fired: number }>;
  /** Links a request-access lead to a session; the same session again returns the first. */
  createAccessRequest(
    scope: Scope,
    input: AccessRequestInput,
  ): Promise<{ readonly accessRequest: AccessRequestRecord; readonly created: boolean }>;
  /** The run's evidence bundle, sealed in a signed DSSE envelope; needs a linked lead. */
  exportEvidence(scope: Scope, runId: string): Promise<DsseEnvelope>;
  /**
   * The public keys evidence verifies with (active and retired), each marked with the
   * environment it signs when the keys are per environment; only the keys that verify
   * `environment`'s evidence when given.
   */
  evidenceKeys(environment?: RunEnvironment): Jwks;
  /**
   * Due time of the scope's earliest pending timer (a deadline) or, in test, queued
   * sandbox job (a simulated partner's answer).
   */
  nextTimerDue(scope: Scope): Promise<string | null>;
  /**
   * Claims and calls the due handoff jobs of an environment until none is due, awaiting the
   * calls (for tests and scripts): in test the sandbox answers, each account on its own
   * clock; in live the `connectors` are called within their flow control. Returns how many
   * calls were settled.
   *
   * @example
   * ```ts
   * await engine.createRun({ account: 'acct_demo', environment: 'live' }, request);
   * await engine.runDueHandoffs('live'); // the partners' connectors were called
   * ```
   */
  runDueHandoffs(environment: RunEnvironment): Promise<number>;
  /**
   * Starts background workers that call the live `connectors` on real time: polling every
   * `handoffs.pollIntervalMs`, woken after any commit that queued a job, calling
   * concurrently up to the host's and the parties' limits. `startScheduler` starts them.
   *
   * @example
   * ```ts
   * const workers = engine.startHandoffWorkers({ onError: (error) => console.error(error) });
   * await workers.stop(); // waits for the calls in flight
   * ```
   */
  startHandoffWorkers(options?: HandoffWorkerOptions): HandoffWorkers;
  /**
   * The partners of a scope with their limits, the account's jobs and this host's breaker:
   * in live every party with a connector; in test the parties of open sandbox jobs.
   *
   * @example
   * ```ts
   * for (const partner of await engine.partners({ account: 'acct_demo', environment: 'live' }))
   *   console.log(partner.party, partner.in_flight, partner.breaker.status);
   * ```
   */
  partners(scope: Scope): Promise<PartnerStatus[]>;
  /**
   * Moves the scope's stored runs of `report.from` to `report.to` by the proof `report`
   * (`checkUpgrade` of the two scenario files this engine loads, with the migration): one
   * transaction per run, each run moved whole (snapshot rebuilt on the new version at the
   * mapped step, a `program_run.upgraded` record in its hash chain, timers kept) or left
   * as it was. Runs at a step the proof found unsafe, or that the migration keeps, stay and
   * are listed with the reason; `dryRun` moves none. A proof of other files than the
   * engine loads is refused (`upgrade_not_proven`). Moving runs names who moves them
   * (`actor`, recorded in each run's upgrade record; else `invalid_upgrade_request`).
   *
   * @example
   * ```ts
   * const report = checkUpgrade(v1File, v2File, migrationFile);
   * const result = await engine.upgradeRuns({ account: 'acct_demo', environment: 'live' }, { report, dryRun: true });
   * result.counts.would_upgrade; // runs that would move
   * await engine.upgradeRuns({ account: 'acct_demo', environment: 'live' }, { report, actor: 'ops:alice' });
   * ```
   */
  upgradeRuns(scope: Scope, options: UpgradeRunsOptions): Promise<UpgradeRunsResult>;
  /**
   * The versions of the scenario `name` this engine loads or the scope has runs of, oldest
   * first, each with its runs by status, how many are unfinished and whether it has
   * drained: when an old version's runs are all finished (moved or done), it can go. A
   * name no loaded version has and no run names is `scenario_not_found`.
   *
   * @example
   * ```ts
   * const versions = await engine.versionUsage({ account: 'acct_demo', environment: 'live' }, 'bank-payout');
   * versions.find((version) => version.scenario_id === 'bank-payout@v1')?.drained; // true once none is left
   * ```
   */
  versionUsage(scope: Scope, name: string): Promise<ScenarioVersionUsage[]>;
  /** Current time of a scope: the live clock, or the account's test clock. */
  now(scope: Scope): Promise<Date>;
  /**
   * Calls `listener` right after every commit of this engine that changed the run (its
   * creation, a signal, a timer, a partner's answer); returns the unsubscribe. Changes
   * committed by other hosts sharing the store are not seen here: poll `getRun` for those.
   * The listener only hears that the run changed: read it with `getRun`.
   *
   * @example
   * ```ts
   * const stop = engine.watchRun(scope, run.id, () => {
   *   void engine.getRun(scope, run.id).then((changed) => console.log(changed.status));
   * });
   * stop(); // no more calls
   * ```
   */
  watchRun(scope: Scope, runId: string, listener: () => void): () => void;
  /**
   * Whether this engine can serve (what `GET /readyz` answers): the store answers within
   * `timeoutMs`, its migrations are current, and every loop registered in `background`
   * (scheduler, handoff workers, webhook dispatcher) is running. Never throws.
   *
   * @example
   * ```ts
   * const { ready, checks } = await engine.readiness();
   * if (!ready) console.warn(checks.store.status, checks.migrations.status, checks.background.workers);
   * ```
   */
  readiness(options?: ReadinessOptions): Promise<Readiness>;
  /**
   * The engine's long-running loops, for readiness: `startScheduler`, the handoff workers
   * and `createWebhookDispatcher(…).start()` register here; a host's own loops may too.
   *
   * @example
   * ```ts
   * const relay = engine.background.started('outbox-relay');
   * process.on('SIGTERM', () => relay.stopped());
   * ```
   */
  readonly background: BackgroundWorkers;
}
