import { initialRunContext, type CompiledScenario } from '@programrun/dsl';
import { buildRecords, type PendingFact } from '../lifecycle/build-records.js';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { Scope, StoredRun } from '../store/store-v1.js';
import type { RunCreation } from '../kernel/commit-transition.js';
import { computePosture } from './posture.js';
import type { ActivationPosture, RunRecord } from './run-record.js';
import { initialStages } from './stage-progress.js';

/**
 * The activation posture of a live restricted run whose account has no activation yet.
 */
export const PENDING_ACTIVATION: ActivationPosture = {
  required: true,
  status: 'pending',
  reference: null,
  activated_at: null,
};

function suspendedRecord(
  compiled: CompiledScenario,
  scope: Scope,
  runId: string,
  creation: RunCreation,
  at: string,
): RunRecord {
  const context = initialRunContext({ environment: scope.environment, inputs: creation.inputs });
  return {
    object: 'program_run',
    id: runId,
    livemode: scope.environment === 'live',
    scenario_id: compiled.id,
    scenario_digest: compiled.digest,
    status: 'suspended',
    stage: null,
    awaiting: null,
    outcome: null,
    session_id: creation.sessionId,
    source_path: creation.sourcePath,
    inputs: creation.inputs,
    posture: computePosture(compiled, scope.environment, context, PENDING_ACTIVATION),
    policy: compiled.policyState(context),
    stages: initialStages(compiled.graph),
    evidence: { chain_head: null, exportable: false },
    created_at: at,
    updated_at: at,
    completed_at: null,
  };
}

/**
 * A new run held in intake until its account's issuer activation: recorded (`created`,
 * then `suspended`) but its machine not started, so no step runs and no partner is asked.
 */
export function suspendedRun(input: {
  readonly compiled: CompiledScenario;
  readonly scope: Scope;
  readonly runId: string;
  readonly at: string;
  readonly creation: RunCreation;
  readonly createdFact: PendingFact;
}): { readonly run: StoredRun; readonly records: LifecycleRecord[] } {
  const { compiled, scope, runId, at, creation } = input;
  const records = buildRecords(runId, { sequence: 0, hash: null }, at, [
    input.createdFact,
    {
      type: 'suspended',
      stage: null,
      step: null,
      data: {
        reason: 'issuer_activation_required',
        asset_track: compiled.definition.asset_track,
        scenario: compiled.definition.scenario,
      },
    },
  ]);
  const base = suspendedRecord(compiled, scope, runId, creation, at);
  const record: RunRecord = {
    ...base,
    evidence: { chain_head: records.at(-1)!.hash, exportable: false },
  };
  return {
    run: {
      id: runId,
      account: scope.account,
      environment: scope.environment,
      version: 1,
      scenario_id: compiled.id,
      status: 'suspended',
      created_at: at,
      idempotency_key: creation.idempotencyKey,
      snapshot: null,
      last_sequence: records.length,
      record,
    },
    records,
  };
}

/**
 * Cancels a run still suspended in intake: nothing ran, so nothing is compensated; the
 * history ends with `cancelled` and `evidence.sealed`.
 */
export function cancelSuspendedRun(
  previous: StoredRun,
  reason: string,
  at: string,
): { readonly run: StoredRun; readonly records: LifecycleRecord[] } {
  const records = buildRecords(
    previous.id,
    { sequence: previous.last_sequence, hash: previous.record.evidence.chain_head },
    at,
    [
      {
        type: 'run.cancelled',
        stage: null,
        step: null,
        data: { reason: 'cancel_requested', message: reason },
      },
      {
        type: 'evidence.sealed',
        stage: null,
        step: null,
        data: { status: 'cancelled', records: previous.last_sequence + 2 },
      },
    ],
  );
  const record: RunRecord = {
    ...previous.record,
    status: 'cancelled',
    outcome: { status: 'cancelled', step: null, reason: 'cancel_requested', message: reason },
    evidence: { chain_head: records.at(-1)!.hash, exportable: previous.record.evidence.exportable },
    updated_at: at,
    completed_at: at,
  };
  return {
    run: {
      ...previous,
      version: previous.version + 1,
      status: 'cancelled',
      last_sequence: previous.last_sequence + records.length,
      record,
    },
    records,
  };
}
