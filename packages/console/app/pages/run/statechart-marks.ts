// Where a run has been on its statechart, from its lifecycle records: the steps it
// visited (in order), those it skipped, the one it waits at, and the edges it took.
// Pure: the Statechart component applies the result to the sanitised SVG.
import type { Awaiting, LifecycleRecord, RunStatus } from '../../api/types.js';

/** What to light on the diagram (node ids as the SVG names them: `step_<id>`, …). */
export interface StatechartMarks {
  /** Node ids of steps the run entered. */
  visited: string[];
  /** Node ids of steps whose `when` was false. */
  skipped: string[];
  /** The node id of the step the run waits at (or stopped at), if any. */
  current: string | null;
  /**
   * Edges the run took, as node-id pairs; for a final run also the edges from its last
   * step to each ending that status may have reached (light those the diagram has).
   */
  taken: { from: string; to: string }[];
}

const ENDINGS_OF: Partial<Record<RunStatus, readonly string[]>> = {
  completed: ['ending_complete'],
  faulted: ['ending_fault', 'ending_compensate'],
  cancelled: ['ending_cancel', 'ending_compensate'],
};

/** The node id of a step. */
export const stepNode = (step: string): string => `step_${step}`;

/**
 * The marks of a run: each record naming a step (`record.step`) is a visit, in sequence
 * order; consecutive distinct steps give the edges taken, from `run_start` to the first
 * and from the last to the ending of a final status. `awaiting` names the current step.
 */
export function statechartMarks(
  records: readonly Pick<LifecycleRecord, 'sequence' | 'type' | 'step'>[],
  run: { status: RunStatus; awaiting: Pick<Awaiting, 'step'> | null },
): StatechartMarks {
  const path: string[] = [];
  const visited = new Set<string>();
  const skipped = new Set<string>();
  const ordered = [...records].sort((a, b) => a.sequence - b.sequence);
  for (const record of ordered) {
    if (record.step === null || record.step === '') continue;
    const node = stepNode(record.step);
    if (record.type === 'program_run.step.skipped') skipped.add(node);
    else visited.add(node);
    if (path.at(-1) !== node) path.push(node);
  }
  for (const node of visited) skipped.delete(node);
  const taken: { from: string; to: string }[] = [];
  let previous = 'run_start';
  for (const node of path) {
    taken.push({ from: previous, to: node });
    previous = node;
  }
  if (path.length > 0) {
    for (const ending of ENDINGS_OF[run.status] ?? []) taken.push({ from: previous, to: ending });
  }
  const current = run.awaiting ? stepNode(run.awaiting.step) : null;
  if (current !== null && !visited.has(current)) visited.add(current);
  return { visited: [...visited], skipped: [...skipped], current, taken };
}
