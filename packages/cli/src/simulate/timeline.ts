import type { CompiledScenario } from '@programrun/dsl';
import type { LifecycleRecord, RunRecord } from '@programrun/engine';

type Data = Readonly<Record<string, unknown>>;

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
const list = (value: unknown): string =>
  Array.isArray(value) ? value.map(text).join(', ') : text(value);

/** `+1h2m5s`: time since the run was created. */
export function elapsed(from: string, to: string): string {
  let seconds = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));
  if (seconds === 0) return '+0s';
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (seconds >= size) {
      parts.push(`${Math.floor(seconds / size)}${unit}`);
      seconds %= size;
    }
  }
  return `+${parts.join('')}`;
}

const decisionsBy = (data: Data): string => {
  const decisions = Array.isArray(data.decisions) ? (data.decisions as Data[]) : [];
  return decisions.map((decision) => text(decision.approver)).join(', ');
};

const failedRules = (data: Data): string => {
  const rules = Array.isArray(data.rules) ? (data.rules as Data[]) : [];
  const failed = rules.filter((rule) => rule.outcome !== 'pass').map((rule) => text(rule.id));
  return failed.length > 0 ? ` (${failed.join(', ')})` : '';
};

/**
 * What one lifecycle record means, in words: the stage entered, the step started,
 * completed or failed, what the run now waits for (and which party), how it ended.
 * The second line, when there is one, is the wait.
 */
export function describeRecord(record: LifecycleRecord, compiled: CompiledScenario): string[] {
  const data = record.data as Data;
  const step = record.step ?? '';
  const compensation = compiled.definition.compensations.some((entry) => entry.id === step);
  const kind = compensation
    ? 'compensation'
    : (compiled.graph.steps.get(step)?.definition.kind ?? 'step');
  const until = data.deadline ? ` until ${text(data.deadline)}` : '';
  switch (record.type) {
    case 'program_run.created':
      return [`run created in ${text(data.environment)} (${text(data.asset_track)})`];
    case 'program_run.suspended':
      return ['run suspended: waits for an issuer activation'];
    case 'program_run.resumed':
      return ['run resumed: issuer activation arrived'];
    case 'program_run.stage.started':
      return [`▸ stage ${record.stage ?? ''} entered`];
    case 'program_run.stage.completed':
      return [`▸ stage ${record.stage ?? ''} completed`];
    case 'program_run.stage.rewound':
      return [`▸ stage ${record.stage ?? ''} rewound to ${text(data.to)}`];
    case 'program_run.step.skipped':
      return [`${kind} ${step} skipped (its when is false)`];
    case 'program_run.step.exhausted':
      return [`${kind} ${step} failed: more than ${text(data.max_attempts)} attempts`];
    case 'program_run.policy.evaluated':
      return data.decision === 'allow'
        ? [`check ${step} completed: allow`]
        : data.decision === 'review'
          ? [`check ${step} needs a review${failedRules(data)}`]
          : [`check ${step} failed: ${text(data.decision)}${failedRules(data)}`];
    case 'program_run.approval.requested':
      return [
        `approval ${step} started`,
        `waits for ${Number(data.quorum) === 1 ? 'an approval' : `${text(data.quorum)} approvals`} by ${list(data.approvers)}${data.maker_checker ? ' (four eyes)' : ''}${until}`,
      ];
    case 'program_run.approval.recorded':
      return [
        `approval ${step}: ${text(data.approvals)} of ${text(data.quorum)} (${decisionsBy(data)})`,
      ];
    case 'program_run.approval.granted':
      return [`approval ${step} completed: granted by ${decisionsBy(data)}`];
    case 'program_run.approval.rejected':
      return [`approval ${step} failed: rejected (${decisionsBy(data)})`];
    case 'program_run.approval.expired':
      return [`approval ${step} failed: expired`];
    case 'program_run.handoff.requested':
      return [
        `${data.compensation ? 'compensation' : 'handoff'} ${step} started: ${text(data.action)} by ${text(data.party)}${Number(data.attempt) > 1 ? ` (attempt ${text(data.attempt)})` : ''}`,
        `waits for ${text(data.party)} to answer${until}`,
      ];
    case 'program_run.handoff.confirmed':
      return [`${kind} ${step} completed: ${text(data.party)} confirmed (${text(data.reference)})`];
    case 'program_run.handoff.rejected':
      return [`${kind} ${step} failed: ${text(data.party)} rejected (${text(data.reference)})`];
    case 'program_run.handoff.failed':
      return [`${kind} ${step} failed: ${text(data.party)} reported a failure`];
    case 'program_run.handoff.timed_out':
      return [`${kind} ${step} failed: no answer before the timeout`];
    case 'program_run.route.selected':
      return [`route ${step} completed: selected ${text(data.selected)}`];
    case 'program_run.delivery.recorded':
    case 'program_run.record.created':
      return [`record ${step} completed: ${text(data.record)} recorded`];
    case 'program_run.wait.started':
      return [`wait ${step} started`, `waits ${text(data.duration)} for its timer`];
    case 'program_run.wait.completed':
      return [`wait ${step} completed`];
    case 'program_run.compensation.started':
      return [`compensation started after ${step}: ${list(data.pending) || 'nothing to undo'}`];
    case 'program_run.compensation.completed':
      return ['compensation completed'];
    case 'program_run.compensation.discharged':
      return [`${step} passed the point of no return (discharged: ${list(data.discharged)})`];
    case 'program_run.completed':
      return ['run completed'];
    case 'program_run.faulted':
    case 'program_run.cancelled':
      return [
        `run ${record.type.slice('program_run.'.length)}${step ? ` at ${step}` : ''}: ${text(data.reason)}${data.message ? ` (${text(data.message)})` : ''}`,
      ];
    case 'program_run.evidence.sealed':
      return [`evidence sealed (${text(data.records)} records)`];
    default:
      return [record.type];
  }
}

/**
 * The timeline of a simulated run: one line per lifecycle record (virtual time, time
 * since creation, record type, meaning) and an indented line for each wait.
 */
export function formatTimeline(
  records: readonly LifecycleRecord[],
  compiled: CompiledScenario,
): string[] {
  const start = records[0]?.created ?? '';
  const typeWidth = Math.max(...records.map((record) => record.type.length - 12), 4);
  const lines: string[] = [];
  for (const record of records) {
    const [what, wait] = describeRecord(record, compiled);
    const prefix = `${record.created}  ${elapsed(start, record.created).padEnd(9)}`;
    lines.push(`${prefix} ${record.type.slice(12).padEnd(typeWidth)}  ${what ?? ''}`);
    if (wait) lines.push(`${' '.repeat(prefix.length + typeWidth + 3)}… ${wait}`);
  }
  return lines;
}

/** The summary under the timeline: final status, outcome, chain head. */
export function formatOutcome(run: RunRecord, records: readonly LifecycleRecord[]): string[] {
  const outcome = run.outcome
    ? ` — ${run.outcome.reason}${run.outcome.step ? ` at ${run.outcome.step}` : ''}${run.outcome.message ? `: ${run.outcome.message}` : ''}`
    : '';
  return [
    `status      ${run.status}${outcome}`,
    `records     ${records.length}`,
    `chain head  ${run.evidence.chain_head ?? records.at(-1)?.hash ?? '—'}`,
  ];
}
