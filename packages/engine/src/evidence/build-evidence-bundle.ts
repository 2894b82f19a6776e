import type { CompiledScenario } from '@programrun/dsl';
import {
  canonicalDigest,
  EVIDENCE_BUNDLE_SCHEMA,
  type EvidenceBundle,
  type JsonObject,
} from '@programrun/evidence';
import type { LifecycleRecord } from '../lifecycle/lifecycle-record.js';
import type { RunRecord } from '../runs/run-record.js';

/** What a bundle is built from. */
export interface EvidenceBundleInput {
  readonly run: RunRecord;
  readonly records: readonly LifecycleRecord[];
  readonly compiled: CompiledScenario;
  readonly kid: string;
  readonly generatedAt: string;
}

const at = (record: LifecycleRecord) => ({ stage: record.stage, sequence: record.sequence });
const attemptOf = (record: LifecycleRecord): number =>
  typeof record.data.attempt === 'number' ? record.data.attempt : 1;

/** Approval and handoff requests, each with the records that answered it. */
function byRequest(
  records: readonly LifecycleRecord[],
  requested: string,
  answers: ReadonlySet<string>,
): { request: LifecycleRecord; answers: LifecycleRecord[] }[] {
  const open = new Map<string, { request: LifecycleRecord; answers: LifecycleRecord[] }>();
  const all: { request: LifecycleRecord; answers: LifecycleRecord[] }[] = [];
  for (const record of records) {
    if (record.step === null) continue;
    if (record.type === requested) {
      const entry = { request: record, answers: [] };
      open.set(record.step, entry);
      all.push(entry);
    } else if (answers.has(record.type)) {
      open.get(record.step)?.answers.push(record);
    }
  }
  return all;
}

const APPROVAL_ANSWERS = new Set([
  'program_run.approval.recorded',
  'program_run.approval.granted',
  'program_run.approval.rejected',
  'program_run.approval.expired',
]);
const HANDOFF_ANSWERS = new Set([
  'program_run.handoff.confirmed',
  'program_run.handoff.rejected',
  'program_run.handoff.failed',
  'program_run.handoff.timed_out',
]);

function approvals(records: readonly LifecycleRecord[]): JsonObject[] {
  return byRequest(records, 'program_run.approval.requested', APPROVAL_ANSWERS).map(
    ({ request, answers }) => {
      const last = answers.at(-1);
      const outcome = last ? last.type.slice('program_run.approval.'.length) : 'pending';
      return {
        step: request.step,
        ...at(request),
        attempt: attemptOf(request),
        review: request.data.review === true,
        approvers: request.data.approvers ?? [],
        quorum: request.data.quorum ?? 1,
        maker_checker: request.data.maker_checker ?? false,
        requested_at: request.created,
        deadline: request.data.deadline ?? null,
        outcome: outcome === 'recorded' ? 'pending' : outcome,
        decisions: last?.data.decisions ?? [],
        approvals: last?.data.approvals ?? 0,
        quorum_met: last?.data.quorum_met ?? false,
        decided_at:
          outcome === 'granted' || outcome === 'rejected' || outcome === 'expired'
            ? (last?.created ?? null)
            : null,
      };
    },
  );
}

function handoffs(records: readonly LifecycleRecord[]): JsonObject[] {
  return byRequest(records, 'program_run.handoff.requested', HANDOFF_ANSWERS).map(
    ({ request, answers }) => {
      const answer = answers[0];
      return {
        step: request.step,
        ...at(request),
        party: request.data.party ?? null,
        action: request.data.action ?? null,
        attempt: attemptOf(request),
        compensation: request.data.compensation === true,
        idempotency_key: request.data.idempotency_key ?? null,
        request: request.data.request ?? {},
        requested_at: request.created,
        deadline: request.data.deadline ?? null,
        outcome: answer ? answer.type.slice('program_run.handoff.'.length) : 'pending',
        reference: answer?.data.reference ?? null,
        // Who posted the answer (a timeout or a simulated partner names nobody).
        answered_by: answer?.data.answered_by ?? null,
        answered_at: answer?.created ?? null,
      };
    },
  );
}

function facts(records: readonly LifecycleRecord[], types: ReadonlySet<string>): JsonObject[] {
  return records
    .filter((record) => types.has(record.type))
    .map((record) => ({
      step: record.step,
      ...at(record),
      record: record.data.record ?? null,
      party: record.data.party ?? null,
      data: record.data.data ?? {},
      recorded_at: record.created,
    }));
}

/**
 * The evidence bundle of a run: the run, its parties and stages, policy state, and views
 * of its hash-chained lifecycle records (routes, delivery objects, recorded facts,
 * approvals, handoffs), plus the records themselves and their chain head.
 */
export function buildEvidenceBundle(input: EvidenceBundleInput): EvidenceBundle {
  const { run, records, compiled } = input;
  return {
    schema: EVIDENCE_BUNDLE_SCHEMA,
    generated_at: input.generatedAt,
    signing: { kid: input.kid, algorithm: 'Ed25519' },
    run: {
      id: run.id,
      livemode: run.livemode,
      environment: run.livemode ? 'live' : 'test',
      scenario_id: run.scenario_id,
      scenario_digest: run.scenario_digest,
      family: compiled.definition.family,
      asset_track: compiled.definition.asset_track,
      status: run.status,
      stage: run.stage,
      outcome: run.outcome as JsonObject | null,
      inputs_digest: canonicalDigest(run.inputs),
      inputs: run.inputs,
      session_id: run.session_id,
      source_path: run.source_path,
      created_at: run.created_at,
      updated_at: run.updated_at,
      completed_at: run.completed_at,
    },
    parties: run.posture.parties.map((party) => ({
      id: party.id,
      name: party.name,
      role: party.role,
      kind: party.kind,
      status: party.status,
      steps: party.steps,
    })),
    stages: run.stages,
    route_selections: records
      .filter((record) => record.type === 'program_run.route.selected')
      .map((record) => ({
        step: record.step,
        ...at(record),
        ...record.data,
        selected_at: record.created,
      })),
    delivery_objects: facts(records, new Set(['program_run.delivery.recorded'])),
    recorded_facts: facts(
      records,
      new Set(['program_run.delivery.recorded', 'program_run.record.created']),
    ),
    approvals: approvals(records),
    handoffs: handoffs(records),
    policy: run.policy as unknown as JsonObject,
    lifecycle: { records, length: records.length, chain_head: records.at(-1)?.hash ?? null },
  };
}
