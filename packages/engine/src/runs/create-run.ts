import type { CompiledScenario } from '@programrun/dsl';
import { canonicalDigest, type JsonObject, type Sha256Digest } from '@programrun/evidence';
import { activationPosture, needsActivation } from '../activation/issuer-activations.js';
import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import { commitTransition } from '../kernel/commit-transition.js';
import type { Transaction } from '../kernel/transaction.js';
import { countTransition, transitionMetrics } from '../kernel/transition-metrics.js';
import { appendLifecycle } from '../lifecycle/append-lifecycle.js';
import type { PendingFact } from '../lifecycle/build-records.js';
import { findUnstorable, UNSTORABLE_MESSAGES } from '../store/storable-values.js';
import type { Scope } from '../store/store-v1.js';
import { readRunRecord } from './run-overlays.js';
import type { ActivationPosture, RunRecord } from './run-record.js';
import { suspendedRun } from './suspended-run.js';

/** What creating a run takes: the body of a creation request plus its idempotency key. */
export interface CreateRunRequest {
  readonly scenario_id: string;
  readonly inputs: unknown;
  readonly session_id?: string | null | undefined;
  readonly source_path?: string | null | undefined;
  /** Makes creation exactly-once per scope: the same key returns the same run. */
  readonly idempotency_key?: string | null | undefined;
}

/** Result of creating a run; `created` is false when the idempotency key named an existing run. */
export interface CreateRunResult {
  readonly run: RunRecord;
  readonly created: boolean;
}

/** A creation request that passed every check that needs no store. */
export interface PreparedCreation {
  readonly request: CreateRunRequest;
  readonly compiled: CompiledScenario;
  readonly inputs: JsonObject;
  /** Canonical digest of the inputs (computed once). */
  readonly inputsDigest: Sha256Digest;
}

/** Whether a creation was already prepared (checked) by `prepareCreation`. */
export const isPrepared = (value: CreateRunRequest | PreparedCreation): value is PreparedCreation =>
  'compiled' in value && 'inputsDigest' in value;

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
  // Text no store keeps alike (NUL, unpaired surrogates), named where it is.
  const unstorable = findUnstorable(inputs);
  if (unstorable.length > 0) {
    const issues = unstorable.map(({ pointer, problem }) => ({
      pointer: `/inputs${pointer}`,
      code: 'invalid_input',
      message: UNSTORABLE_MESSAGES[problem],
    }));
    throw new EngineError(
      'invalid_inputs',
      `The inputs cannot be stored: ${issues.map((issue) => `${issue.pointer} ${issue.message}`).join('; ')}.`,
      issues,
    );
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
  // The run keeps a copy of its own: nothing the caller does to its object afterwards
  // reaches the stored run, and the engine's documents stay immutable once written.
  const own = JSON.parse(JSON.stringify(inputs)) as JsonObject;
  const issues = compiled.inputs.validate(own);
  if (issues.length > 0) {
    throw new EngineError(
      'invalid_inputs',
      `The inputs do not match ${compiled.id}: ${issues.map((issue) => `/inputs${issue.pointer} ${issue.message}`).join('; ')}.`,
      issues.map((issue) => ({ ...issue, pointer: `/inputs${issue.pointer}` })),
    );
  }
  return { inputs: own, digest };
}

/**
 * Checks a creation request before any transaction: its scenario exists, its inputs are
 * valid, its track may run in the scope's environment.
 */
export function prepareCreation(
  catalogue: EngineContext['catalogue'],
  scope: Scope,
  request: CreateRunRequest,
): PreparedCreation {
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
  return { request, compiled, inputs, inputsDigest };
}

/** A key that created a run may only repeat the same creation. */
function assertSameCreation(run: RunRecord, prepared: PreparedCreation): void {
  const { request } = prepared;
  const same =
    run.scenario_id === prepared.compiled.id &&
    canonicalDigest(run.inputs) === prepared.inputsDigest &&
    run.session_id === (request.session_id ?? null) &&
    run.source_path === (request.source_path ?? null);
  if (!same) {
    throw new EngineError(
      'idempotency_key_reused',
      `This idempotency key already created run ${run.id} with a different request; use a new key for a new run.`,
    );
  }
}

/** The `program_run.created` fact of a new run. */
function createdFact(scope: Scope, prepared: PreparedCreation): PendingFact {
  const { compiled, request } = prepared;
  return {
    type: 'created',
    stage: null,
    step: null,
    data: {
      scenario_id: compiled.id,
      scenario_digest: compiled.digest,
      environment: scope.environment,
      asset_track: compiled.definition.asset_track,
      inputs_digest: prepared.inputsDigest,
      session_id: request.session_id ?? null,
      source_path: request.source_path ?? null,
    },
  };
}

/**
 * Creates the run inside the caller's transaction, or finds the one its idempotency key
 * already made. A live run of a restricted scenario without its account's issuer
 * activation is recorded but held `suspended` in intake. A new run keeps `traceContext`
 * (its create span's), and so do its events and handoff jobs.
 */
export async function createRunIn(
  context: EngineContext,
  transaction: Transaction,
  scope: Scope,
  prepared: PreparedCreation,
  traceContext: string | null = null,
): Promise<CreateRunResult> {
  const { tx } = transaction;
  const { compiled, inputs, request } = prepared;
  const idempotencyKey = request.idempotency_key ?? null;
  if (idempotencyKey !== null) {
    const existing = await tx.findRunByIdempotencyKey(scope, idempotencyKey);
    if (existing) {
      assertSameCreation(existing.record, prepared);
      return { run: await readRunRecord(context, tx, scope, existing), created: false };
    }
  }
  const runId = context.ids.run();
  const now = await context.clocks.now(tx, scope);
  const creation = {
    idempotencyKey,
    sessionId: request.session_id ?? null,
    sourcePath: request.source_path ?? null,
    inputs,
  };
  const fact = createdFact(scope, prepared);
  let activation: ActivationPosture | undefined;
  if (needsActivation(compiled, scope.environment)) {
    activation = activationPosture(
      await tx.lockIssuerActivation(scope.account, compiled.definition.scenario),
    );
    if (activation.status === 'pending') {
      // No activation yet: record the run, but hold it in intake (no step runs).
      const held = suspendedRun({
        compiled,
        scope,
        runId,
        at: now.toISOString(),
        creation,
        createdFact: fact,
      });
      const run = traceContext ? { ...held.run, trace_context: traceContext } : held.run;
      await tx.insertRun(run);
      await appendLifecycle(
        transaction,
        scope,
        { id: runId, scenario_id: compiled.id, scenario_digest: compiled.digest },
        held.records,
        context.deliveries,
        traceContext,
      );
      countTransition(transitionMetrics(context), transaction, {
        kind: 'create',
        scope,
        scenarioId: compiled.id,
        before: null,
        after: run.status,
      });
      return { run: await readRunRecord(context, tx, scope, run), created: true };
    }
  }
  const { run, awaitedJob } = await commitTransition({
    transaction,
    compiled,
    scope,
    runId,
    now,
    result: compiled.start({ environment: scope.environment, inputs }),
    previous: null,
    sandbox: context.sandbox,
    handoffs: context.handoffs,
    deliveries: context.deliveries,
    creation,
    leadingFacts: [fact],
    ...(activation ? { activation } : {}),
    kind: 'create',
    metrics: transitionMetrics(context),
    traceContext,
  });
  return { run: await readRunRecord(context, tx, scope, run, awaitedJob), created: true };
}
