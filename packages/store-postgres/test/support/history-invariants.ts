// What must hold of every run's history whatever crashed or raced: the hash chain, no
// transition applied twice, no decision lost.
import { FINAL_STATUSES, type LifecycleRecord } from '@programrun/engine';
import { verifyChain } from '@programrun/evidence';
import type { RunHistory } from './run-history.js';

const HANDOFF_OUTCOMES = new Set([
  'program_run.handoff.confirmed',
  'program_run.handoff.rejected',
  'program_run.handoff.failed',
  'program_run.handoff.timed_out',
]);
const APPROVAL_DECISIONS = new Set([
  'program_run.approval.recorded',
  'program_run.approval.granted',
  'program_run.approval.rejected',
]);

interface Decision {
  readonly approver: string;
  readonly decision: string;
}

const countBy = (keys: readonly string[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
};

/** Each handoff attempt requested once, answered (or timed out) at most once: timers fired once. */
function handoffProblems({ run, records }: RunHistory): string[] {
  const problems: string[] = [];
  const requests = records.filter((record) => record.type === 'program_run.handoff.requested');
  for (const [attempt, count] of countBy(
    requests.map((record) => `${record.step}#${JSON.stringify(record.data.attempt ?? null)}`),
  )) {
    if (count > 1) problems.push(`handoff ${attempt} requested ${count} times`);
  }
  const requested = countBy(requests.map((record) => record.step ?? ''));
  const answered = countBy(
    records.filter((record) => HANDOFF_OUTCOMES.has(record.type)).map((r) => r.step ?? ''),
  );
  for (const [step, count] of requested) {
    const outcomes = answered.get(step) ?? 0;
    const open = run.awaiting?.kind === 'handoff' && run.awaiting.step === step ? 1 : 0;
    if (outcomes !== count - open) {
      problems.push(`handoff ${step}: ${count} requested, ${outcomes} outcomes, ${open} open`);
    }
  }
  for (const [step, count] of answered) {
    if (!requested.has(step)) problems.push(`handoff ${step}: ${count} outcomes, never requested`);
  }
  return problems;
}

/**
 * Each approval decision record adds exactly one decision to those before it (since the
 * step's last request), from an approver not seen before: no decision applied twice and
 * none lost to a concurrent update.
 */
function approvalProblems({ records }: RunHistory): string[] {
  const problems: string[] = [];
  const decided = new Map<string, readonly Decision[]>();
  for (const record of records) {
    const step = record.step ?? '';
    if (record.type === 'program_run.approval.requested') decided.set(step, []);
    if (!APPROVAL_DECISIONS.has(record.type)) continue;
    const before = decided.get(step) ?? [];
    const decisions = (record.data.decisions ?? []) as unknown as readonly Decision[];
    const added = decisions.slice(before.length);
    const samePrefix = before.every(
      (decision, index) => decisions[index]?.approver === decision.approver,
    );
    if (decisions.length !== before.length + 1 || !samePrefix) {
      problems.push(
        `approval ${step} record ${record.sequence}: ${before.length} decisions before, now ${decisions.map((d) => d.approver).join(',')}`,
      );
    }
    if (added.some((decision) => before.some((prior) => prior.approver === decision.approver))) {
      problems.push(`approval ${step} record ${record.sequence}: an approver decided twice`);
    }
    decided.set(step, decisions);
  }
  return problems;
}

/** One `created` first; a final run ends in one terminal record and one `evidence.sealed`. */
function lifecycleProblems({ run, records }: RunHistory): string[] {
  const problems: string[] = [];
  const types = records.map((record) => record.type);
  const count = (type: string) => types.filter((candidate) => candidate === type).length;
  if (types[0] !== 'program_run.created' || count('program_run.created') !== 1) {
    problems.push('the history does not start with exactly one program_run.created');
  }
  const terminal =
    count('program_run.completed') + count('program_run.faulted') + count('program_run.cancelled');
  const sealed = count('program_run.evidence.sealed');
  if (FINAL_STATUSES.has(run.status)) {
    if (terminal !== 1 || sealed !== 1 || types.at(-1) !== 'program_run.evidence.sealed') {
      problems.push(`${run.status} run: ${terminal} terminal records, ${sealed} sealed`);
    }
  } else if (terminal !== 0 || sealed !== 0) {
    problems.push(`${run.status} run has ${terminal} terminal and ${sealed} sealed records`);
  }
  return problems;
}

/**
 * Everything wrong with a run's history (empty when intact): the hash chain verifies
 * from sequence 1 to the run's `evidence.chain_head`; every acknowledged chain head (from
 * a 2xx answer) is in it; no handoff or approval decision is applied twice or lost.
 *
 * @example
 * ```ts
 * expect(historyProblems(await readRunHistory(client, id), acknowledgedHeads)).toEqual([]);
 * ```
 */
export function historyProblems(
  history: RunHistory,
  acknowledgedHeads: Iterable<string> = [],
): string[] {
  const { run, records } = history;
  const problems: string[] = [];
  const chain = verifyChain(records, { expectedHead: run.evidence.chain_head });
  if (!chain.ok) problems.push(`chain: ${chain.message}`);
  if (records.some((record: LifecycleRecord) => record.run_id !== run.id)) {
    problems.push('a record of another run');
  }
  const hashes = new Set(records.map((record) => record.hash));
  for (const head of acknowledgedHeads) {
    if (!hashes.has(head as LifecycleRecord['hash'])) {
      problems.push(`acknowledged chain head ${head} is missing`);
    }
  }
  problems.push(...lifecycleProblems(history), ...handoffProblems(history));
  problems.push(...approvalProblems(history));
  return problems.map((problem) => `${run.id}: ${problem}`);
}
