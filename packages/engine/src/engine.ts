import {
  canonicalDigest,
  sealEvidence,
  type DsseEnvelope,
  type JsonObject,
  type Jwks,
  type Sha256Digest,
} from '@programrun/evidence';
import type { CompiledScenario, RunEnvironment, RunEvent } from '@programrun/dsl';
import { assertAccountId } from './account-id.js';
import {
  activationPosture,
  assertActivation,
  assertRestrictedScenario,
  needsActivation,
  toActivationRecord,
  type ActivateIssuerInput,
  type ActivationResult,
  type IssuerActivationRecord,
} from './activation/issuer-activations.js';
import { createScenarioCatalogue, type ScenarioCatalogue } from './catalogue.js';
import { systemClock, type Clock } from './clock.js';
import type { EngineOptions } from './engine-options.js';
import { EngineError } from './errors.js';
import { randomIds } from './ids.js';
import {
  assertAccessRequest,
  assertLeadLinked,
  toAccessRequestRecord,
  withExportability,
  type AccessRequestInput,
  type AccessRequestRecord,
} from './evidence/access-requests.js';
import { buildEvidenceBundle } from './evidence/build-evidence-bundle.js';
import type { LifecycleRecord } from './lifecycle/lifecycle-record.js';
import { createApiKeys, type ApiKeys } from './keys/api-keys.js';
import { commitStep } from './runs/commit-step.js';
import { FINAL_STATUSES, type ActivationPosture, type RunRecord } from './runs/run-record.js';
import { cancelSuspendedRun, suspendedRun } from './runs/suspended-run.js';
import { explainRefusal } from './signals/explain-refusal.js';
import { createEnvironmentClocks } from './timers/environment-clocks.js';
import { simulatedAnswer } from './timers/sandbox-partners.js';
import { partnerIdempotencyKey } from './timers/timer-plan.js';
import { toRunEvent, type Signal } from './signals/signal.js';
import { appendLifecycle } from './webhooks/outbox.js';
import type { WebhookEventRun } from './webhooks/webhook-event.js';
import { createWebhooks, type Webhooks } from './webhooks/webhooks.js';
import { isStoreError } from './store/store-error.js';
import type {
  Page,
  RunQuery,
  Scope,
  StoredRun,
  StoreTransactionV1,
  StoreV1,
  TimerQuery,
  TimerRow,
} from './store/store-v1.js';

/** What `createRun` takes: the body of `POST /v1/program-runs` plus its Idempotency-Key. */
export interface CreateRunRequest {
  readonly scenario_id: string;
  readonly inputs: unknown;
  readonly session_id?: string | null | undefined;
  readonly source_path?: string | null | undefined;
  /** Makes creation exactly-once per scope: the same key returns the same run. */
  readonly idempotency_key?: string | null | undefined;
}

/** Result of `createRun`; `created` is false when the idempotency key named an existing run. */
export interface CreateRunResult {
  readonly run: RunRecord;
  readonly created: boolean;
}

/** Result of `signal`; `applied` is false for a duplicate of what is already recorded. */
export interface SignalResult {
  readonly run: RunRecord;
  readonly applied: boolean;
}

/** Issuer activations of restricted scenarios, per account (live environment). */
export interface IssuerActivations {
  /**
   * Activates a restricted scenario (by name, every version) for an account and starts
   * its live runs waiting `suspended` in intake. Activating again is harmless: it keeps
   * the first activation and starts any run still suspended.
   */
  activate(account: string, input: ActivateIssuerInput): Promise<ActivationResult>;
  /** Ends an activation: new live runs wait `suspended` again; started runs go on. */
  revoke(account: string, scenario: string): Promise<IssuerActivationRecord>;
  /** The account's activations, by scenario name. */
  list(account: string): Promise<IssuerActivationRecord[]>;
}

/** The engine: creates runs, applies signals and fires timers, one store transaction each. */
export interface Engine {
  readonly scenarios: ScenarioCatalogue;
  /** The store, for host-level concerns that share its transactions (HTTP idempotency). */
  readonly store: StoreV1;
  /** The built-in API key store (create, list, revoke, authenticate). */
  readonly apiKeys: ApiKeys;
  /** Issuer activations that let live runs of restricted scenarios leave intake. */
  readonly activations: IssuerActivations;
  /** Webhook endpoints, the event list, redelivery, and the outbox a dispatcher drains. */
  readonly webhooks: Webhooks;
  createRun(scope: Scope, request: CreateRunRequest): Promise<CreateRunResult>;
  /**
   * Creates a run inside work of your own, in one store transaction: what `work` writes
   * with `tx` (an HTTP idempotency answer, an outbox row of yours) commits with the run or
   * not at all. `work` calls `create` at most once, or not at all to answer without
   * creating. The whole of `work` is retried on a concurrent update, so keep it free of
   * side effects outside `tx`.
   *
   * @example
   * ```ts
   * const status = await engine.createRunWithin(scope, async (tx, create) => {
   *   const { run, created } = await create({ scenario_id: 'wallet-delivery@v1', inputs, idempotency_key: key });
   *   await tx.putIdempotencyRecord(recordFor(run));
   *   return created ? 201 : 200;
   * });
   * ```
   */
  createRunWithin<T>(
    scope: Scope,
    work: (
      tx: StoreTransactionV1,
      create: (request: CreateRunRequest) => Promise<CreateRunResult>,
    ) => Promise<T>,
  ): Promise<T>;
  getRun(scope: Scope, id: string): Promise<RunRecord>;
  listRuns(scope: Scope, query?: Partial<RunQuery>): Promise<Page<RunRecord>>;
  listEvents(
    scope: Scope,
    runId: string,
    options?: { afterSequence?: number; limit?: number },
  ): Promise<LifecycleRecord[]>;
  signal(scope: Scope, runId: string, signal: Signal): Promise<SignalResult>;
  /** Fires every timer due in an environment (each account on its own clock); returns how many fired. */
  runDueTimers(environment: RunEnvironment): Promise<number>;
  /**
   * Moves one account's test clock forward, firing each of its timers at its own due time
   * on the way. Other accounts' clocks and timers are untouched.
   */
  advanceTestClock(
    account: string,
    seconds: number,
  ): Promise<{ readonly now: string; readonly fired: number }>;
  /** Links a request-access lead to a session; the same session again returns the first. */
  createAccessRequest(
    scope: Scope,
    input: AccessRequestInput,
  ): Promise<{ readonly accessRequest: AccessRequestRecord; readonly created: boolean }>;
  /** The run's evidence bundle, sealed in a signed DSSE envelope; needs a linked lead. */
  exportEvidence(scope: Scope, runId: string): Promise<DsseEnvelope>;
  /** The public keys evidence verifies with (active and retired). */
  evidenceKeys(): Jwks;
  /** Due time of the scope's earliest pending timer (a deadline or a partner answer). */
  nextTimerDue(scope: Scope): Promise<string | null>;
  /** Current time of a scope: the live clock, or the account's test clock. */
  now(scope: Scope): Promise<Date>;
}

const MAX_LIST_LIMIT = 100;

/** What a run's events say about it. */
const eventRun = (runId: string, compiled: CompiledScenario): WebhookEventRun => ({
  id: runId,
  scenario_id: compiled.id,
  scenario_digest: compiled.digest,
});

/** A run whose machine has started (every run except one suspended in intake). */
type StartedRun = StoredRun & { readonly snapshot: NonNullable<StoredRun['snapshot']> };
const isStarted = (run: StoredRun): run is StartedRun => run.snapshot !== null;

/**
 * Creates an engine over a store and a catalogue of compiled scenarios.
 *
 * @example
 * ```ts
 * const engine = createEngine({ store: createMemoryStore(), scenarios: [compile(text)] });
 * const scope = { account: 'acct_demo', environment: 'test' } as const;
 * const { run } = await engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs, idempotency_key: 'k1' });
 * await engine.advanceTestClock('acct_demo', 60); // simulated partners answer
 * ```
 */
export function createEngine(options: EngineOptions): Engine {
  const { store } = options;
  const catalogue =
    'list' in options.scenarios ? options.scenarios : createScenarioCatalogue(options.scenarios);
  const liveClock: Clock = options.clock ?? systemClock;
  const clocks = createEnvironmentClocks(liveClock, options.testClock ?? liveClock);
  const ids = options.ids ?? randomIds();
  const sandbox = options.sandbox ?? {};
  const maxRetries = options.maxConflictRetries ?? 8;
  const timerLeaseMs = options.timerLeaseMs ?? 60_000;
  const apiKeys = createApiKeys({
    store,
    clock: liveClock,
    ids,
    ...(options.apiKeyCacheMs === undefined ? {} : { cacheMs: options.apiKeyCacheMs }),
  });
  const { webhooks, outbox } = createWebhooks({
    store,
    clocks,
    clock: liveClock,
    ids,
    options: options.webhooks ?? {},
  });
  /** One clock advance at a time per account (they would race to move the same offset). */
  const clockQueues = new Map<string, Promise<unknown>>();

  async function withConflictRetry<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if (!isStoreError(error, 'version_conflict') || attempt >= maxRetries) {
          if (isStoreError(error, 'version_conflict')) {
            throw new EngineError(
              'concurrent_update',
              'The run kept changing under concurrent updates; retry.',
            );
          }
          throw error;
        }
      }
    }
  }

  function compiledFor(run: StoredRun): CompiledScenario {
    const compiled = catalogue.get(run.scenario_id);
    if (compiled.digest !== run.record.scenario_digest) {
      throw new EngineError(
        'scenario_digest_mismatch',
        `Run ${run.id} was created with ${run.scenario_id} digest ${run.record.scenario_digest}; this engine has ${compiled.digest}. Published scenario versions must not change.`,
      );
    }
    return compiled;
  }

  async function loadRun(tx: StoreTransactionV1, scope: Scope, id: string): Promise<StoredRun> {
    const run = await tx.getRun(scope, id);
    if (!run)
      throw new EngineError('run_not_found', `No run ${id} in this account and environment.`);
    return run;
  }

  /** The inputs, checked against the scenario, and their canonical digest (computed once). */
  function validateInputs(
    compiled: CompiledScenario,
    inputs: unknown,
  ): { readonly inputs: JsonObject; readonly digest: Sha256Digest } {
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
      throw new EngineError('invalid_inputs', 'inputs must be a JSON object.', [
        { pointer: '/inputs', code: 'invalid_input', message: 'must be an object' },
      ]);
    }
    let digest: Sha256Digest;
    try {
      // Canonical JSON refuses anything that is not plain JSON (numbers beyond I-JSON, …).
      digest = canonicalDigest(inputs);
    } catch {
      throw new EngineError(
        'invalid_inputs',
        'inputs must be plain JSON (money as decimal strings).',
        [{ pointer: '/inputs', code: 'invalid_input', message: 'must be plain JSON' }],
      );
    }
    const issues = compiled.inputs.validate(inputs);
    if (issues.length > 0) {
      throw new EngineError(
        'invalid_inputs',
        `The inputs do not match ${compiled.id}: ${issues.map((issue) => `/inputs${issue.pointer} ${issue.message}`).join('; ')}.`,
        issues.map((issue) => ({ ...issue, pointer: `/inputs${issue.pointer}` })),
      );
    }
    return { inputs: inputs as JsonObject, digest };
  }

  /**
   * Applies one event to a run in one transaction. `buildEvent` sees only started runs
   * (with a snapshot); a run still suspended in intake goes to `onSuspended` instead.
   */
  async function applyEvent(
    scope: Scope,
    runId: string,
    buildEvent: (run: StartedRun, at: string) => RunEvent | null,
    options: {
      readonly firedTimer?: TimerRow;
      readonly onSuspended?: (
        tx: StoreTransactionV1,
        run: StoredRun,
        at: string,
      ) => Promise<StoredRun>;
    } = {},
  ): Promise<{ run: StoredRun; accepted: boolean }> {
    const { firedTimer } = options;
    return withConflictRetry(() =>
      store.transaction(async (tx) => {
        const run = await loadRun(tx, scope, runId);
        // Another host may have fired this timer since it was claimed (its lease ended):
        // a timer that is no longer pending is never applied twice.
        const pending = firedTimer ? await tx.pendingTimers(runId) : undefined;
        if (firedTimer && !pending?.some((t) => t.id === firedTimer.id)) {
          return { run, accepted: false };
        }
        const compiled = compiledFor(run);
        const now = await clocks.now(tx, scope);
        if (!isStarted(run) && !FINAL_STATUSES.has(run.status) && options.onSuspended) {
          return { run: await options.onSuspended(tx, run, now.toISOString()), accepted: true };
        }
        const event =
          FINAL_STATUSES.has(run.status) || !isStarted(run)
            ? null
            : buildEvent(run, now.toISOString());
        const result = event && isStarted(run) ? compiled.transition(run.snapshot, event) : null;
        if (!result?.accepted) {
          if (firedTimer) await tx.settleTimers([firedTimer.id], 'cancelled');
          return { run, accepted: false };
        }
        const committed = await commitStep({
          tx,
          compiled,
          scope,
          runId,
          now,
          result,
          previous: run,
          sandbox,
          outbox,
          ...(firedTimer ? { firedTimerId: firedTimer.id } : {}),
          ...(pending ? { pendingTimers: pending } : {}),
        });
        return { run: committed.run, accepted: true };
      }),
    );
  }

  async function fireTimer(timer: TimerRow): Promise<boolean> {
    const scope: Scope = { account: timer.account, environment: timer.environment };
    const event = (run: StartedRun, at: string): RunEvent =>
      timer.kind === 'partner_response'
        ? simulatedAnswer(
            compiledFor(run),
            timer.step,
            partnerIdempotencyKey(run.id, timer.step, timer.attempt),
            timer.attempt,
            run.snapshot.context,
            at,
          )
        : { type: 'timer.fired', step: timer.step, attempt: timer.attempt, at };
    try {
      return (await applyEvent(scope, timer.run_id, event, { firedTimer: timer })).accepted;
    } catch (error) {
      // A timer of a run that no longer exists is dropped rather than retried forever.
      if (!(error instanceof EngineError && error.code === 'run_not_found')) throw error;
      await store.transaction((tx) => tx.settleTimers([timer.id], 'cancelled'));
      return false;
    }
  }

  /**
   * Fires the timers matching `query` that are due at `now()`, in rounds until none is.
   * Each round claims a batch under a lease, so hosts sharing a store split the work and
   * never fire one timer together. With `awaitOthers`, it also waits (up to one lease)
   * for due timers another caller holds, so the caller sees them fired when it returns.
   */
  async function fireDueTimers(
    query: TimerQuery,
    now: () => Promise<Date> | Date,
    { awaitOthers = false }: { readonly awaitOthers?: boolean } = {},
  ): Promise<number> {
    let fired = 0;
    let failure: { error: unknown } | undefined;
    const waitUntil = Date.now() + timerLeaseMs;
    for (let round = 0; round < 100_000; round += 1) {
      const at = (await now()).toISOString();
      const leaseNow = liveClock.now();
      const claimed = await store.transaction((tx) =>
        tx.claimTimers({
          ...query,
          due_at: at,
          lease_now: leaseNow.toISOString(),
          lease_until: new Date(leaseNow.getTime() + timerLeaseMs).toISOString(),
          limit: 100,
        }),
      );
      if (claimed.length === 0) {
        if (!awaitOthers || Date.now() > waitUntil) break;
        const held = await store.transaction((tx) => tx.dueTimers(query, at, 1));
        if (held.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      for (const timer of claimed) {
        try {
          if (await fireTimer(timer)) fired += 1;
        } catch (error) {
          // One timer failing (its lease holds it back for a while) never stops the others.
          failure ??= { error };
        }
      }
      if (failure) break;
    }
    if (failure) throw failure.error;
    return fired;
  }

  /** Fires one account's due test timers on its own clock. */
  function fireAccountTestTimers(account: string, awaitOthers = false): Promise<number> {
    const scope: Scope = { account, environment: 'test' };
    return fireDueTimers(
      { environment: 'test', account },
      () => store.transaction((tx) => clocks.now(tx, scope)),
      { awaitOthers },
    );
  }

  /**
   * Starts the machine of a run suspended in intake (its account now has the issuer
   * activation). False when the run is no longer suspended.
   */
  async function startSuspendedRun(
    scope: Scope,
    runId: string,
    activation: ActivationPosture,
  ): Promise<boolean> {
    return withConflictRetry(() =>
      store.transaction(async (tx) => {
        const run = await loadRun(tx, scope, runId);
        if (isStarted(run) || run.status !== 'suspended') return false;
        const compiled = compiledFor(run);
        const now = await clocks.now(tx, scope);
        await commitStep({
          tx,
          compiled,
          scope,
          runId,
          now,
          result: compiled.start({ environment: scope.environment, inputs: run.record.inputs }),
          previous: run,
          sandbox,
          outbox,
          activation,
          leadingFacts: [
            {
              type: 'resumed',
              stage: null,
              step: null,
              data: { reason: 'issuer_activation', reference: activation.reference },
            },
          ],
        });
        return true;
      }),
    );
  }

  /** Starts every live run of the account's scenario (any version) suspended for activation. */
  async function resumeSuspendedRuns(
    account: string,
    scenario: string,
    activation: ActivationPosture,
  ): Promise<string[]> {
    const scope: Scope = { account, environment: 'live' };
    const resumed: string[] = [];
    for (const compiled of catalogue.list()) {
      if (compiled.definition.scenario !== scenario) continue;
      // Started runs leave the `suspended` list, so the first page is always the next one.
      for (;;) {
        const page = await store.transaction((tx) =>
          tx.listRuns(scope, { status: 'suspended', scenario_id: compiled.id, limit: 100 }),
        );
        let progressed = false;
        for (const run of page.data) {
          if (await startSuspendedRun(scope, run.id, activation)) {
            resumed.push(run.id);
            progressed = true;
          }
        }
        if (!page.has_more || !progressed) break;
      }
    }
    return resumed;
  }

  function evidenceKeySet() {
    if (!options.evidence) {
      throw new EngineError(
        'evidence_keys_missing',
        'This deployment has no evidence signing keys: pass createEngine({ evidence: { keys } }).',
      );
    }
    return options.evidence.keys;
  }

  /** A key that created a run may only repeat the same creation. */
  function assertSameCreation(
    run: RunRecord,
    scenarioId: string,
    inputsDigest: Sha256Digest,
    request: CreateRunRequest,
  ): void {
    const same =
      run.scenario_id === scenarioId &&
      canonicalDigest(run.inputs) === inputsDigest &&
      run.session_id === (request.session_id ?? null) &&
      run.source_path === (request.source_path ?? null);
    if (!same) {
      throw new EngineError(
        'idempotency_key_reused',
        `Idempotency-Key already created run ${run.id} with a different request; use a new key for a new run.`,
      );
    }
  }

  /** The attempt a partner answer names through its idempotency key; refuses stale keys. */
  function answeredAttempt(run: StartedRun, signal: Signal): number | undefined {
    if (signal.kind !== 'handoff' || signal.idempotency_key === undefined) return undefined;
    const current = run.snapshot.context.attempts[signal.step] ?? 0;
    for (let attempt = current; attempt >= 1; attempt -= 1) {
      if (partnerIdempotencyKey(run.id, signal.step, attempt) !== signal.idempotency_key) continue;
      if (attempt === current) return attempt;
      throw new EngineError(
        'handoff_key_mismatch',
        `This answer is for attempt ${attempt} of "${signal.step}", which has since been retried (attempt ${current}); it was not applied.`,
      );
    }
    throw new EngineError(
      'handoff_key_mismatch',
      `The idempotency key is not one this run gave for "${signal.step}"; send the pik_ key from the handoff request.`,
    );
  }

  /** Checks a creation request: its scenario exists, its inputs are valid, its track may run. */
  function prepareCreation(scope: Scope, request: CreateRunRequest) {
    if (typeof request.scenario_id !== 'string') {
      throw new EngineError(
        'invalid_inputs',
        'scenario_id must be a string such as wallet-delivery@v1.',
        [{ pointer: '/scenario_id', code: 'invalid_value', message: 'must be a string' }],
      );
    }
    const compiled = catalogue.get(request.scenario_id);
    const { inputs, digest: inputsDigest } = validateInputs(compiled, request.inputs);
    if (
      scope.environment === 'live' &&
      compiled.definition.asset_track === 'production_placeholder'
    ) {
      throw new EngineError(
        'track_not_available',
        `${compiled.id} is on the production_placeholder track: it runs simulated with test keys and cannot run live.`,
        [
          {
            pointer: '/scenario_id',
            code: 'track_not_available',
            message: 'is on the production_placeholder track, which runs only with test keys',
          },
        ],
      );
    }
    return { compiled, inputs, inputsDigest };
  }

  /** Creates the run (or finds the one its idempotency key already made) inside `tx`. */
  async function createInTransaction(
    tx: StoreTransactionV1,
    scope: Scope,
    request: CreateRunRequest,
    prepared: ReturnType<typeof prepareCreation>,
  ): Promise<CreateRunResult> {
    const { compiled, inputs, inputsDigest } = prepared;
    const idempotencyKey = request.idempotency_key ?? null;
    if (idempotencyKey !== null) {
      const existing = await tx.findRunByIdempotencyKey(scope, idempotencyKey);
      if (existing) {
        assertSameCreation(existing.record, compiled.id, inputsDigest, request);
        return { run: await withExportability(tx, scope, existing.record), created: false };
      }
    }
    const runId = ids.run();
    const now = await clocks.now(tx, scope);
    const sessionId = request.session_id ?? null;
    const sourcePath = request.source_path ?? null;
    const creation = { idempotencyKey, sessionId, sourcePath, inputs };
    const createdFact = {
      type: 'created',
      stage: null,
      step: null,
      data: {
        scenario_id: compiled.id,
        scenario_digest: compiled.digest,
        environment: scope.environment,
        asset_track: compiled.definition.asset_track,
        inputs_digest: inputsDigest,
        session_id: sessionId,
        source_path: sourcePath,
      },
    };
    let activation: ActivationPosture | undefined;
    if (needsActivation(compiled, scope.environment)) {
      activation = activationPosture(
        await tx.getIssuerActivation(scope.account, compiled.definition.scenario),
      );
      if (activation.status === 'pending') {
        // No activation yet: record the run, but hold it in intake (no step runs).
        const held = suspendedRun({
          compiled,
          scope,
          runId,
          at: now.toISOString(),
          creation,
          createdFact,
        });
        await tx.insertRun(held.run);
        await appendLifecycle(tx, scope, eventRun(runId, compiled), held.records, outbox);
        return { run: await withExportability(tx, scope, held.run.record), created: true };
      }
    }
    const { run } = await commitStep({
      tx,
      compiled,
      scope,
      runId,
      now,
      result: compiled.start({ environment: scope.environment, inputs }),
      previous: null,
      sandbox,
      outbox,
      creation,
      leadingFacts: [createdFact],
      ...(activation ? { activation } : {}),
    });
    return { run: await withExportability(tx, scope, run.record), created: true };
  }

  /**
   * Runs one creation transaction, retried whole on a version conflict; once more when
   * another host inserted a run with the same key between our lookup and our insert
   * (the retry finds it and answers with it, so one key always maps to one run).
   */
  async function creationTransaction<T>(work: (tx: StoreTransactionV1) => Promise<T>): Promise<T> {
    const attempt = () => withConflictRetry(() => store.transaction(work));
    try {
      return await attempt();
    } catch (error) {
      if (isStoreError(error, 'duplicate_key')) return attempt();
      throw error;
    }
  }

  const engine: Engine = {
    scenarios: catalogue,
    store,
    apiKeys,
    webhooks,

    async createRun(scope, request) {
      const prepared = prepareCreation(scope, request);
      return creationTransaction((tx) => createInTransaction(tx, scope, request, prepared));
    },

    async createRunWithin(scope, work) {
      return creationTransaction((tx) =>
        work(tx, (request) =>
          createInTransaction(tx, scope, request, prepareCreation(scope, request)),
        ),
      );
    },

    async getRun(scope, id) {
      return store.transaction(async (tx) =>
        withExportability(tx, scope, (await loadRun(tx, scope, id)).record),
      );
    },

    async listRuns(scope, query = {}) {
      const limit = Math.min(Math.max(query.limit ?? 10, 1), MAX_LIST_LIMIT);
      return store.transaction(async (tx) => {
        const page = await tx.listRuns(scope, { ...query, limit });
        const data = await Promise.all(
          page.data.map((run) => withExportability(tx, scope, run.record)),
        );
        return { data, has_more: page.has_more };
      });
    },

    async listEvents(scope, runId, options = {}) {
      return store.transaction(async (tx) => {
        await loadRun(tx, scope, runId);
        return tx.listRecords(scope, runId, options);
      });
    },

    async signal(scope, runId, signal) {
      let verdictRun: StoredRun | undefined;
      const outcome = await applyEvent(
        scope,
        runId,
        (run, at) => {
          verdictRun = run;
          return toRunEvent(signal, at, answeredAttempt(run, signal));
        },
        {
          // Held in intake: only a cancel applies (nothing ran, so nothing to undo).
          onSuspended: async (tx, run, at) => {
            if (signal.kind !== 'cancel') {
              throw new EngineError(
                'run_suspended',
                `The run is suspended in intake until account ${scope.account} has an issuer activation for ${compiledFor(run).definition.scenario}; only cancel is accepted.`,
              );
            }
            const cancelled = cancelSuspendedRun(run, signal.reason ?? 'requested', at);
            await tx.updateRun(cancelled.run, run.version);
            await appendLifecycle(
              tx,
              scope,
              eventRun(run.id, compiledFor(run)),
              cancelled.records,
              outbox,
            );
            return cancelled.run;
          },
        },
      );
      const decorate = (record: RunRecord) =>
        store.transaction((tx) => withExportability(tx, scope, record));
      if (outcome.accepted) return { run: await decorate(outcome.run.record), applied: true };
      const run = verdictRun ?? outcome.run;
      const verdict = explainRefusal(compiledFor(run), run, signal);
      if (verdict.duplicate) return { run: await decorate(run.record), applied: false };
      throw new EngineError(verdict.code, verdict.message);
    },

    async runDueTimers(environment) {
      if (environment === 'live') return fireDueTimers({ environment }, () => clocks.live());
      // Test clocks are the base clock plus a per-account offset that only grows, so
      // whatever is due on the base clock is due for every account; then each account
      // that moved its clock fires what is due on its own time.
      let fired = await fireDueTimers({ environment }, () => clocks.testBase());
      const moved = await store.transaction((tx) => tx.listTestClocks());
      for (const clock of moved) fired += await fireAccountTestTimers(clock.account);
      return fired;
    },

    advanceTestClock(account, seconds) {
      assertAccountId(account);
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new RangeError('seconds must be a non-negative number');
      const scope: Scope = { account, environment: 'test' };
      const advance = async () => {
        const start = await store.transaction((tx) => clocks.now(tx, scope));
        const target = new Date(start.getTime() + Math.round(seconds * 1000));
        // The advance answers with every due timer fired, including those a scheduler
        // (here or on another host) is firing right now.
        let fired = await fireAccountTestTimers(account, true);
        let stuck: string | undefined;
        for (let round = 0; round < 100_000; round += 1) {
          const next = await store.transaction((tx) =>
            tx.nextTimer({ environment: 'test', account }),
          );
          // A timer still pending after a round held it is leased by a host that stopped
          // answering: its lease ends and the scheduler fires it then.
          if (!next || next.due_at > target.toISOString() || next.id === stuck) break;
          await store.transaction((tx) => clocks.moveTestClock(tx, account, new Date(next.due_at)));
          fired += await fireAccountTestTimers(account, true);
          stuck = next.id;
        }
        const now = await store.transaction((tx) => clocks.moveTestClock(tx, account, target));
        fired += await fireAccountTestTimers(account, true);
        return { now: now.toISOString(), fired };
      };
      const queued = (clockQueues.get(account) ?? Promise.resolve()).then(advance);
      const settled = queued.catch(() => undefined);
      clockQueues.set(account, settled);
      void settled.then(() => {
        if (clockQueues.get(account) === settled) clockQueues.delete(account);
      });
      return queued;
    },

    activations: {
      async activate(account, input) {
        assertAccountId(account);
        const scenario = assertActivation(catalogue, input);
        const row = await store.transaction(async (tx) => {
          const existing = await tx.getIssuerActivation(account, scenario);
          if (existing?.status === 'active') return existing;
          const activated = {
            account,
            scenario,
            status: 'active' as const,
            reference: input.reference.trim(),
            activated_at: clocks.live().toISOString(),
            revoked_at: null,
          };
          await tx.putIssuerActivation(activated);
          return activated;
        });
        const resumed = await resumeSuspendedRuns(account, scenario, activationPosture(row));
        return { activation: toActivationRecord(row), resumed_runs: resumed };
      },

      async revoke(account, scenario) {
        assertAccountId(account);
        const name = assertRestrictedScenario(catalogue, scenario);
        return store.transaction(async (tx) => {
          const existing = await tx.getIssuerActivation(account, name);
          if (!existing) {
            throw new EngineError(
              'activation_not_found',
              `Account ${account} has no issuer activation for ${name}.`,
            );
          }
          if (existing.status === 'revoked') return toActivationRecord(existing);
          const revoked = {
            ...existing,
            status: 'revoked' as const,
            revoked_at: clocks.live().toISOString(),
          };
          await tx.putIssuerActivation(revoked);
          return toActivationRecord(revoked);
        });
      },

      async list(account) {
        assertAccountId(account);
        const rows = await store.transaction((tx) => tx.listIssuerActivations(account));
        return rows.map(toActivationRecord);
      },
    },

    async createAccessRequest(scope, input) {
      assertAccessRequest(input);
      return store.transaction(async (tx) => {
        const existing = await tx.getAccessRequestBySession(scope, input.session_id);
        if (existing) return { accessRequest: toAccessRequestRecord(existing), created: false };
        const row = {
          id: ids.accessRequest(),
          account: scope.account,
          environment: scope.environment,
          session_id: input.session_id,
          name: input.name,
          email: input.email,
          company: input.company,
          use_case: input.use_case,
          created_at: (await clocks.now(tx, scope)).toISOString(),
        };
        await tx.insertAccessRequest(row);
        return { accessRequest: toAccessRequestRecord(row), created: true };
      });
    },

    async exportEvidence(scope, runId) {
      const keys = evidenceKeySet();
      const { run, records, now } = await store.transaction(async (tx) => {
        const stored = await loadRun(tx, scope, runId);
        await assertLeadLinked(tx, scope, stored.record);
        return {
          run: await withExportability(tx, scope, stored.record),
          records: await tx.listRecords(scope, runId),
          now: await clocks.now(tx, scope),
        };
      });
      const bundle = buildEvidenceBundle({
        run,
        records,
        compiled: catalogue.get(run.scenario_id),
        kid: keys.signer.kid,
        generatedAt: now.toISOString(),
      });
      return sealEvidence(bundle, keys.signer);
    },

    evidenceKeys: () => evidenceKeySet().publicJwks(),

    async nextTimerDue(scope) {
      const next = await store.transaction((tx) =>
        tx.nextTimer({ environment: scope.environment, account: scope.account }),
      );
      return next?.due_at ?? null;
    },

    now: (scope) => store.transaction((tx) => clocks.now(tx, scope)),
  };
  return engine;
}
