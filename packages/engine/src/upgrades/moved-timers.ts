import { parseDuration, type UpgradeState } from '@programrun/dsl';
import { deterministicId } from '../ids/deterministic-id.js';
import type { TimerRow } from '../store/store-v1.js';

/** The timers a moved run has on the new version, and those they take the place of. */
export interface MovedTimers {
  /** Timers to schedule: the wait's under the new step's ids, or with its new deadline. */
  readonly carried: readonly TimerRow[];
  /** Pending timers the carried ones replace. */
  readonly replaced: readonly string[];
  /** The wait's deadline, before and after, when the upgrade moved it. */
  readonly deadline: { readonly from: string; readonly to: string } | null;
}

/**
 * The run's pending timers of the step it waited at (`waitsAt.from`), as the new version
 * has them at `waitsAt.to`: a renamed step's timers under the ids the new step's get, with
 * their deadlines; and, when the proof moves the wait's deadline (`moved`, the migration's
 * `deadlines: new_version`), its timer due the new duration after the wait started (its old
 * due time less the old duration), under an id of its own (`version` tells it from the one
 * it replaces). Timers of a step that kept its id and deadline are kept as they are.
 */
export function movedTimers(
  pending: readonly TimerRow[],
  runId: string,
  waitsAt: { readonly from: string; readonly to: string },
  moved: UpgradeState['deadline'],
  version: string,
): MovedTimers {
  const carried: TimerRow[] = [];
  const replaced: string[] = [];
  let deadline: MovedTimers['deadline'] = null;
  for (const timer of pending) {
    if (timer.step !== waitsAt.from) continue;
    const key = `${runId}:${waitsAt.to}:${timer.attempt}:${timer.kind}`;
    if (moved && timer.kind === moved.kind) {
      const started = Date.parse(timer.due_at) - parseDuration(moved.from);
      const due = new Date(started + parseDuration(moved.to)).toISOString();
      deadline = { from: timer.due_at, to: due };
      replaced.push(timer.id);
      carried.push({
        ...timer,
        step: waitsAt.to,
        due_at: due,
        id: deterministicId('tmr', `${key}:${version}`),
      });
    } else if (waitsAt.from !== waitsAt.to) {
      carried.push({ ...timer, step: waitsAt.to, id: deterministicId('tmr', key) });
    }
  }
  return { carried, replaced, deadline };
}
