import type { AwaitingRecord } from '@programrun/engine';
import type { Trace } from './run-trace.js';
import type { TimelineEntry, TimelineRecord } from './timeline.js';

/** Longest block of drain actions folded when it repeats. */
const MAX_PERIOD = 6;

/** Virtual time since the run was created: `+0:02:05`, `+1d 04:00:00`. */
function sinceStart(at: string, start: string): string {
  const total = Math.max(0, Math.round((Date.parse(at) - Date.parse(start)) / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const clock = `${String(Math.floor((total % 3600) / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
  return days > 0 ? `+${days}d ${String(hours).padStart(2, '0')}:${clock}` : `+${hours}:${clock}`;
}

const waitedOn = (awaiting: AwaitingRecord | null): string =>
  awaiting ? `${awaiting.kind} ${awaiting.step}` : '-';

const outcomeOf = (entry: TimelineEntry): string => {
  switch (entry.outcome) {
    case 'refused':
      return `refused ${entry.code ?? ''}`.trim();
    case 'clock':
      return entry.records.length > 0 ? 'timers fired' : 'nothing due';
    case 'none':
      return 'nothing to send';
    default:
      return entry.outcome;
  }
};

/** A record in a few words: `handoff.timed_out send_payout`, `stage.started repair`. */
const describeRecord = (record: TimelineRecord): string =>
  `${record.type.replace(/^program_run\./, '')} ${record.step ?? record.stage ?? ''}`.trim();

/** What makes two drain entries "the same action" when folding repeats. */
const signature = (entry: TimelineEntry): string =>
  [
    entry.phase,
    waitedOn(entry.waited),
    entry.action.replace(/\d+/g, '#'),
    outcomeOf(entry),
    entry.records.map(describeRecord).join(','),
  ].join('|');

/** The shortest block starting at `start` that repeats at least three times, and how often. */
function repetition(entries: readonly TimelineEntry[], start: number) {
  const signatures = entries.map(signature);
  for (let period = 1; period <= MAX_PERIOD; period += 1) {
    let repeats = 1;
    const matches = (offset: number) =>
      Array.from({ length: period }, (_, index) => index).every(
        (index) =>
          entries[offset + index]?.phase === 'drain' &&
          signatures[offset + index] === signatures[start + index],
      );
    if (!matches(start)) return undefined;
    while (matches(start + repeats * period)) repeats += 1;
    if (repeats >= 3) return { period, repeats };
  }
  return undefined;
}

function finalLine(trace: Trace): string {
  const { run } = trace;
  if (run.status === 'completed') return 'final: completed';
  if (run.outcome) {
    return `final: ${run.status} at ${run.outcome.step ?? '-'} (${run.outcome.reason}${run.outcome.message ? `: ${run.outcome.message}` : ''})`;
  }
  if (!run.awaiting) return `final: still ${run.status} after ${trace.drainRounds} drain rounds`;
  const deadline = run.awaiting.deadline
    ? `deadline ${sinceStart(run.awaiting.deadline, trace.timeline[0]?.at ?? run.created_at)}`
    : 'no deadline';
  return `final: still waiting on ${waitedOn(run.awaiting)} (${deadline}) after ${trace.drainRounds} drain rounds`;
}

/**
 * A trace as a readable timeline: a header (scenario, id seed, partners, drain), the
 * inputs, then one line per action with its virtual time since creation, what the run
 * waited on, the action (signal or clock move) and its outcome (`applied`, `duplicate`,
 * `refused <code>`, `timers fired`), each followed by the stage and step transitions it
 * caused; drain actions that repeat are folded; last the final status.
 *
 * @example
 * ```ts
 * console.log(formatTimeline(await runTrace(compiled, inputs, plan, 'seed-7')));
 * //   +0:00:00  handoff send_payout   partner answer send_payout: rejected   applied
 * //             → handoff.rejected send_payout · approval.requested repair_beneficiary
 * ```
 */
export function formatTimeline(trace: Trace): string {
  const start = trace.timeline[0]?.at ?? trace.run.created_at;
  const rows: (readonly [string, string, string, string] | string)[] = [];
  const row = (entry: TimelineEntry): void => {
    const marker = entry.phase === 'drain' ? 'drain: ' : entry.stale ? 'stale: ' : '';
    rows.push([
      sinceStart(entry.at, start),
      waitedOn(entry.waited),
      `${marker}${entry.action}`,
      outcomeOf(entry),
    ]);
    if (entry.records.length > 0) rows.push(`→ ${entry.records.map(describeRecord).join(' · ')}`);
  };
  const entries = trace.timeline;
  for (let index = 0; index < entries.length;) {
    const entry = entries[index]!;
    const cycle = entry.phase === 'drain' ? repetition(entries, index) : undefined;
    if (!cycle) {
      row(entry);
      index += 1;
      continue;
    }
    entries.slice(index, index + cycle.period).forEach(row);
    const last = entries[index + cycle.repeats * cycle.period - 1]!;
    rows.push(
      `… the ${cycle.period === 1 ? 'same action repeats' : `same ${cycle.period} actions repeat`} ${cycle.repeats - 1} more times, until ${sinceStart(last.at, start)}`,
    );
    index += cycle.repeats * cycle.period;
  }
  const widths = [0, 1, 2].map((column) =>
    Math.max(...rows.map((line) => (typeof line === 'string' ? 0 : line[column]!.length))),
  );
  const pad = ' '.repeat(widths[0]! + 2);
  const lines = rows.map((line) =>
    typeof line === 'string'
      ? `  ${pad}${line}`
      : `  ${line
          .map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell))
          .join('  ')}`,
  );
  const header = [
    `timeline of ${trace.scenario} · ids ${trace.seed} · partners ${trace.plan.partnersAnswer ? 'answer' : 'silent'} · drain ${trace.plan.drain ?? 'expire'} (at most ${trace.drainRounds} rounds)`,
    `inputs ${JSON.stringify(trace.inputs)}`,
    `  ${['time'.padEnd(widths[0]!), 'waiting on'.padEnd(widths[1]!), 'action'.padEnd(widths[2]!), 'outcome'].join('  ')}`,
  ];
  return [...header, ...lines, finalLine(trace)].join('\n');
}
