import type { CompiledScenario, PersistedSnapshot, RunState } from '@programrun/dsl';
import type { JsonObject, Sha256Digest } from '@programrun/evidence';
import type { TimerRow } from '../store/store-v1.js';
import { awaitingDecisions } from './awaiting-decisions.js';
import { computePosture, NO_ACTIVATION_REQUIRED } from './posture.js';
import type {
  ActivationPosture,
  AwaitingRecord,
  RunRecord,
  RunStatus,
  RunUpgradeRecord,
  StageRecord,
} from './run-record.js';

/** Everything that determines a run record at one point in time. */
export interface RunRecordInput {
  readonly id: string;
  readonly compiled: CompiledScenario;
  readonly environment: 'test' | 'live';
  readonly snapshot: PersistedSnapshot;
  readonly state: RunState;
  readonly stages: readonly StageRecord[];
  readonly pendingTimers: readonly TimerRow[];
  readonly chainHead: Sha256Digest | null;
  readonly sessionId: string | null;
  readonly sourcePath: string | null;
  readonly inputs: JsonObject;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly previous: RunRecord | null;
  /** The activation posture; carried over from `previous` when absent. */
  readonly activation?: ActivationPosture;
  /** The upgrade this transition is, added to `previous`'s upgrades. */
  readonly upgrade?: RunUpgradeRecord;
}

/** The run status of a machine state: `waiting` whenever something is awaited. */
export function statusOf(state: RunState): RunStatus {
  if (state.status !== 'active') return state.status;
  return state.awaiting ? 'waiting' : 'running';
}

function awaitingOf(input: RunRecordInput): AwaitingRecord | null {
  const { state, compiled, snapshot, pendingTimers } = input;
  const awaiting = state.awaiting;
  if (!awaiting) return null;
  const deadlineTimer = pendingTimers.find(
    (timer) =>
      timer.step === awaiting.step &&
      timer.attempt === awaiting.attempt &&
      timer.kind !== 'partner_response',
  );
  const step = compiled.graph.steps.get(awaiting.step)?.definition;
  let approvers: readonly string[] | null = null;
  let quorum: number | null = null;
  if (step?.kind === 'approval') ({ approvers, quorum } = step);
  if (step?.kind === 'check' && step.review) ({ approvers, quorum } = step.review);
  const decisions = snapshot.context.approvals[awaiting.step] ?? [];
  return {
    kind: awaiting.kind,
    step: awaiting.step,
    deadline: deadlineTimer?.due_at ?? null,
    party: awaiting.party,
    approvers,
    quorum,
    approvals:
      awaiting.kind === 'approval'
        ? new Set(
            decisions.filter((item) => item.decision === 'approve').map((item) => item.approver),
          ).size
        : null,
    decisions: awaitingDecisions(awaiting.kind, decisions),
  };
}

/**
 * The stage a run entered last (by start time, later stages winning ties), or null when it
 * entered none: where a run that ended in its very first transition ended.
 */
function lastEnteredStage(stages: readonly StageRecord[]): string | null {
  let last: StageRecord | null = null;
  for (const stage of stages)
    if (stage.started_at !== null && (last === null || stage.started_at >= last.started_at!))
      last = stage;
  return last?.id ?? null;
}

/**
 * The `program_run` object for the current state of a run. Pure: the engine recomputes
 * and stores it on every transition, so reads never touch the machine.
 */
export function buildRunRecord(input: RunRecordInput): RunRecord {
  const { compiled, state, snapshot } = input;
  const status = statusOf(state);
  const final = status === 'completed' || status === 'faulted' || status === 'cancelled';
  const ending = state.ending;
  return {
    object: 'program_run',
    id: input.id,
    livemode: input.environment === 'live',
    scenario_id: compiled.id,
    scenario_digest: compiled.digest,
    status,
    stage: state.stage ?? input.previous?.stage ?? lastEnteredStage(input.stages),
    awaiting: awaitingOf(input),
    outcome:
      final && ending
        ? {
            status: ending.status,
            step: ending.step,
            reason: ending.reason,
            message: ending.message,
          }
        : null,
    session_id: input.sessionId,
    source_path: input.sourcePath,
    inputs: input.inputs,
    posture: computePosture(
      compiled,
      input.environment,
      snapshot.context,
      input.activation ?? input.previous?.posture.activation ?? NO_ACTIVATION_REQUIRED,
    ),
    policy: compiled.policyState(snapshot.context),
    stages: input.stages,
    evidence: { chain_head: input.chainHead, exportable: false },
    created_at: input.createdAt,
    updated_at: input.updatedAt,
    completed_at: final ? (input.previous?.completed_at ?? input.updatedAt) : null,
    ...upgradesOf(input),
  };
}

/** The run's upgrades, when it had any: `previous`'s, and this transition's. */
function upgradesOf(input: RunRecordInput): { upgrades?: readonly RunUpgradeRecord[] } {
  const earlier = input.previous?.upgrades ?? [];
  const upgrades = input.upgrade ? [...earlier, input.upgrade] : earlier;
  return upgrades.length === 0 ? {} : { upgrades };
}
