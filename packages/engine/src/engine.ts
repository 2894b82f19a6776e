import {
  canonicalDigest,
  canonicalize,
  sealEvidence,
  type DsseEnvelope,
  type JsonObject,
  type Jwks,
} from '@programrun/evidence';
import type { CompiledScenario, RunEnvironment, RunEvent } from '@programrun/dsl';
import { createScenarioCatalogue, type ScenarioCatalogue } from './catalogue.js';
import { createOffsetClock, systemClock, type AdjustableClock, type Clock } from './clock.js';
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
import { commitStep } from './runs/commit-step.js';
import { FINAL_STATUSES, type RunRecord } from './runs/run-record.js';
import { explainRefusal } from './signals/explain-refusal.js';
import { simulatedAnswer } from './timers/sandbox-partners.js';
import { partnerIdempotencyKey } from './timers/timer-plan.js';
import { toRunEvent, type Signal } from './signals/signal.js';
import { isStoreError } from './store/store-error.js';
import type {
  Page,
  RunQuery,
  Scope,
  StoredRun,
  StoreTransactionV1,
  StoreV1,
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

/** The engine: creates runs, applies signals and fires timers, one store transaction each. */
export interface Engine {
  readonly scenarios: ScenarioCatalogue;
  /** The store, for host-level concerns that share its transactions (HTTP idempotency). */
  readonly store: StoreV1;
  createRun(scope: Scope, request: CreateRunRequest): Promise<CreateRunResult>;
  getRun(scope: Scope, id: string): Promise<RunRecord>;
  listRuns(scope: Scope, query?: Partial<RunQuery>): Promise<Page<RunRecord>>;
  listEvents(
    scope: Scope,
    runId: string,
    options?: { afterSequence?: number; limit?: number },
  ): Promise<LifecycleRecord[]>;
  signal(scope: Scope, runId: string, signal: Signal): Promise<SignalResult>;
  /** Fires every timer due on the environment's clock; returns how many fired. */
  runDueTimers(environment: RunEnvironment): Promise<number>;
  /** Moves the test clock forward, firing each timer at its own due time on the way. */
  advanceTestClock(seconds: number): Promise<{ readonly now: string; readonly fired: number }>;
  /** Links a request-access lead to a session; the same session again returns the first. */
  createAccessRequest(
    scope: Scope,
    input: AccessRequestInput,
  ): Promise<{ readonly accessRequest: AccessRequestRecord; readonly created: boolean }>;
  /** The run's evidence bundle, sealed in a signed DSSE envelope; needs a linked lead. */
  exportEvidence(scope: Scope, runId: string): Promise<DsseEnvelope>;
  /** The public keys evidence verifies with (active and retired). */
  evidenceKeys(): Jwks;
  /** Due time of the earliest pending timer of an environment (a deadline or a partner answer). */
  nextTimerDue(environment: RunEnvironment): Promise<string | null>;
  /** Current time of an environment's clock. */
  now(environment: RunEnvironment): Date;
}

const MAX_LIST_LIMIT = 100;

/**
 * Creates an engine over a store and a catalogue of compiled scenarios.
 *
 * @example
 * ```ts
 * const engine = createEngine({ store: createMemoryStore(), scenarios: [compile(text)] });
 * const scope = { account: 'acct_demo', environment: 'test' } as const;
 * const { run } = await engine.createRun(scope, { scenario_id: 'wallet-delivery@v1', inputs, idempotency_key: 'k1' });
 * await engine.advanceTestClock(60); // simulated partners answer
 * ```
 */
export function createEngine(options: EngineOptions): Engine {
  const { store } = options;
  const catalogue =
    'list' in options.scenarios ? options.scenarios : createScenarioCatalogue(options.scenarios);
  const liveClock: Clock = options.clock ?? systemClock;
  const testClock: AdjustableClock = options.testClock ?? createOffsetClock(liveClock);
  const ids = options.ids ?? randomIds();
  const sandbox = options.sandbox ?? {};
  const maxRetries = options.maxConflictRetries ?? 8;
  const clockOf = (environment: RunEnvironment): Clock =>
    environment === 'test' ? testClock : liveClock;
  let clockQueue: Promise<unknown> = Promise.resolve();

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

  function validateInputs(compiled: CompiledScenario, inputs: unknown): JsonObject {
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
      throw new EngineError('invalid_inputs', 'inputs must be a JSON object.', [
        { pointer: '/inputs', code: 'invalid_input', message: 'must be an object' },
      ]);
    }
    try {
      canonicalize(inputs);
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
    return inputs as JsonObject;
  }

  async function applyEvent(
    scope: Scope,
    runId: string,
    buildEvent: (run: StoredRun, at: string) => RunEvent | null,
    firedTimer?: TimerRow,
  ): Promise<{ run: StoredRun; accepted: boolean }> {
    return withConflictRetry(() =>
      store.transaction(async (tx) => {
        const run = await loadRun(tx, scope, runId);
        const compiled = compiledFor(run);
        const now = clockOf(scope.environment).now();
        const event = FINAL_STATUSES.has(run.status) ? null : buildEvent(run, now.toISOString());
        const result = event ? compiled.transition(run.snapshot, event) : null;
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
          ...(firedTimer ? { firedTimerId: firedTimer.id } : {}),
        });
        return { run: committed.run, accepted: true };
      }),
    );
  }

  async function fireTimer(timer: TimerRow): Promise<boolean> {
    const scope: Scope = { account: timer.account, environment: timer.environment };
    const exists = await store.transaction((tx) => tx.getRun(scope, timer.run_id));
    if (!exists) {
      await store.transaction((tx) => tx.settleTimers([timer.id], 'cancelled'));
      return false;
    }
    const outcome = await applyEvent(
      scope,
      timer.run_id,
      (run, at): RunEvent =>
        timer.kind === 'partner_response'
          ? simulatedAnswer(
              compiledFor(run),
              timer.step,
              partnerIdempotencyKey(run.id, timer.step, timer.attempt),
              timer.attempt,
              run.snapshot.context,
              at,
            )
          : { type: 'timer.fired', step: timer.step, attempt: timer.attempt, at },
      timer,
    );
    return outcome.accepted;
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
    inputs: JsonObject,
    request: CreateRunRequest,
  ): void {
    const same =
      run.scenario_id === scenarioId &&
      canonicalDigest(run.inputs) === canonicalDigest(inputs) &&
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
  function answeredAttempt(run: StoredRun, signal: Signal): number | undefined {
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

  const engine: Engine = {
    scenarios: catalogue,
    store,

    async createRun(scope, request) {
      if (typeof request.scenario_id !== 'string') {
        throw new EngineError(
          'invalid_inputs',
          'scenario_id must be a string such as wallet-delivery@v1.',
          [{ pointer: '/scenario_id', code: 'invalid_value', message: 'must be a string' }],
        );
      }
      const compiled = catalogue.get(request.scenario_id);
      const inputs = validateInputs(compiled, request.inputs);
      if (
        scope.environment === 'live' &&
        compiled.definition.asset_track === 'production_placeholder'
      ) {
        throw new EngineError(
          'track_not_available',
          `${compiled.id} is on the production_placeholder track: it runs simulated with test keys and cannot run live.`,
        );
      }
      const idempotencyKey = request.idempotency_key ?? null;
      return withConflictRetry(() =>
        store.transaction(async (tx) => {
          if (idempotencyKey !== null) {
            const existing = await tx.findRunByIdempotencyKey(scope, idempotencyKey);
            if (existing) {
              assertSameCreation(existing.record, compiled.id, inputs, request);
              return { run: await withExportability(tx, scope, existing.record), created: false };
            }
          }
          const runId = ids.run();
          const now = clockOf(scope.environment).now();
          const sessionId = request.session_id ?? null;
          const sourcePath = request.source_path ?? null;
          const result = compiled.start({ environment: scope.environment, inputs });
          const { run } = await commitStep({
            tx,
            compiled,
            scope,
            runId,
            now,
            result,
            previous: null,
            sandbox,
            creation: { idempotencyKey, sessionId, sourcePath, inputs },
            leadingFacts: [
              {
                type: 'created',
                stage: null,
                step: null,
                data: {
                  scenario_id: compiled.id,
                  scenario_digest: compiled.digest,
                  environment: scope.environment,
                  asset_track: compiled.definition.asset_track,
                  inputs_digest: canonicalDigest(inputs),
                  session_id: sessionId,
                  source_path: sourcePath,
                },
              },
            ],
          });
          return { run: await withExportability(tx, scope, run.record), created: true };
        }),
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
      const outcome = await applyEvent(scope, runId, (run, at) => {
        verdictRun = run;
        return toRunEvent(signal, at, answeredAttempt(run, signal));
      });
      const decorate = (record: RunRecord) =>
        store.transaction((tx) => withExportability(tx, scope, record));
      if (outcome.accepted) return { run: await decorate(outcome.run.record), applied: true };
      const run = verdictRun ?? outcome.run;
      const verdict = explainRefusal(compiledFor(run), run, signal);
      if (verdict.duplicate) return { run: await decorate(run.record), applied: false };
      throw new EngineError(verdict.code, verdict.message);
    },

    async runDueTimers(environment) {
      let fired = 0;
      for (let round = 0; round < 1000; round += 1) {
        const now = clockOf(environment).now().toISOString();
        const due = await store.transaction((tx) => tx.dueTimers(environment, now, 100));
        if (due.length === 0) break;
        for (const timer of due) if (await fireTimer(timer)) fired += 1;
      }
      return fired;
    },

    advanceTestClock(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new RangeError('seconds must be a non-negative number');
      const advance = async () => {
        const target = new Date(testClock.now().getTime() + Math.round(seconds * 1000));
        let fired = await engine.runDueTimers('test');
        for (let round = 0; round < 100_000; round += 1) {
          const next = await store.transaction((tx) => tx.nextTimer('test'));
          if (!next || next.due_at > target.toISOString()) break;
          const due = new Date(next.due_at);
          if (due > testClock.now()) testClock.advanceTo(due);
          fired += await engine.runDueTimers('test');
        }
        if (target > testClock.now()) testClock.advanceTo(target);
        fired += await engine.runDueTimers('test');
        return { now: testClock.now().toISOString(), fired };
      };
      const run = clockQueue.then(advance);
      clockQueue = run.catch(() => undefined);
      return run;
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
          created_at: clockOf(scope.environment).now().toISOString(),
        };
        await tx.insertAccessRequest(row);
        return { accessRequest: toAccessRequestRecord(row), created: true };
      });
    },

    async exportEvidence(scope, runId) {
      const keys = evidenceKeySet();
      const { run, records } = await store.transaction(async (tx) => {
        const stored = await loadRun(tx, scope, runId);
        await assertLeadLinked(tx, scope, stored.record);
        return {
          run: await withExportability(tx, scope, stored.record),
          records: await tx.listRecords(scope, runId),
        };
      });
      const bundle = buildEvidenceBundle({
        run,
        records,
        compiled: catalogue.get(run.scenario_id),
        kid: keys.signer.kid,
        generatedAt: clockOf(scope.environment).now().toISOString(),
      });
      return sealEvidence(bundle, keys.signer);
    },

    evidenceKeys: () => evidenceKeySet().publicJwks(),

    async nextTimerDue(environment) {
      const next = await store.transaction((tx) => tx.nextTimer(environment));
      return next?.due_at ?? null;
    },

    now: (environment) => clockOf(environment).now(),
  };
  return engine;
}
