import { FINAL_STATUSES } from '@programrun/engine';
import type { Trace } from './run-trace.js';
import type { TimelineEntry } from './timeline.js';

const describe = (entry: TimelineEntry): string => `after "${entry.action}" at ${entry.at}`;

/**
 * Every state of a trace no signal or timer would move. Each state the run rests in
 * that is not final must be an explained wait: `waiting` on a step with a deadline and
 * with a timer pending no later than that deadline (so time alone moves it). And letting
 * a deadline lapse must change the run: it appends records. Empty when every state is
 * movable.
 *
 * @example
 * ```ts
 * stuckStateViolations(trace); // ['after "cancel" at 2026-06-01T08:00:00.000Z the run is running without waiting on anything']
 * ```
 */
export function stuckStateViolations(trace: Trace): string[] {
  const violations: string[] = [];
  let previous: TimelineEntry | undefined;
  for (const entry of trace.timeline) {
    const moved = previous === undefined || entry.records.length > 0;
    if (
      !moved &&
      entry.outcome === 'clock' &&
      entry.action.startsWith('expire') &&
      previous !== undefined &&
      !FINAL_STATUSES.has(previous.status)
    ) {
      violations.push(
        `${describe(entry)}: letting the deadline of ${entry.waited?.step ?? '-'} lapse changed nothing`,
      );
    }
    previous = entry;
    if (FINAL_STATUSES.has(entry.status)) continue;
    const awaiting = entry.awaiting;
    if (entry.status !== 'waiting' || awaiting === null) {
      violations.push(`${describe(entry)} the run is ${entry.status} without waiting on anything`);
    } else if (awaiting.deadline === null) {
      violations.push(
        `${describe(entry)} the run waits on ${awaiting.kind} ${awaiting.step} without a deadline`,
      );
    } else if (entry.nextTimer === null) {
      violations.push(
        `${describe(entry)} the run waits on ${awaiting.kind} ${awaiting.step} with no timer pending`,
      );
    } else if (entry.nextTimer > awaiting.deadline) {
      violations.push(
        `${describe(entry)} the run waits on ${awaiting.kind} ${awaiting.step} until ${awaiting.deadline} but its first timer is due ${entry.nextTimer}`,
      );
    }
  }
  return [...new Set(violations)];
}
