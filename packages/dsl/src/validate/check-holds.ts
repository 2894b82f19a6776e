import type { Problem } from '../problem.js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import type { HoldDefinition } from '../schema/hold-schema.js';
import type { YamlSource } from '../source/yaml-source.js';
import {
  describePath,
  isCompleting,
  type EdgeKind,
  type FlowGraph,
  type FlowPath,
  type FlowStep,
} from '../graph/flow-graph.js';

/** One point of the search: where the run is, and whether a releasing compensation is registered. */
interface HoldState {
  readonly node: string;
  readonly live: boolean;
}

/** How a path leaves the hold in place: the run completes, or ends cancelled with nothing registered to release it. */
interface Unreleased {
  readonly path: FlowPath;
  readonly ending: 'complete' | 'cancel' | 'cancel_request';
}

const key = ({ node, live }: HoldState): string => `${node}\u0000${live}`;

/** Whether a cancel request is accepted while the step waits (approvals, reviews, waits). */
function acceptsCancel(step: FlowStep): boolean {
  if (step.kind === 'approval' || step.kind === 'wait') return true;
  return (
    step.kind === 'check' && 'review' in step.definition && step.definition.review !== undefined
  );
}

/** Whether a releasing compensation is registered after `step` completes (given `live` before). */
function liveAfter(step: FlowStep, live: boolean, releasers: ReadonlySet<string>): boolean {
  const definition = step.definition as { compensate?: string; pivot?: boolean };
  if (definition.compensate !== undefined && releasers.has(definition.compensate)) return true;
  // A pivot discharges every compensation registered so far.
  return definition.pivot === true ? false : live;
}

/**
 * The shortest path from the completion of the hold's `placed_by` to an ending that keeps
 * the hold: `complete`, or a cancel (by a flow target or by a cancel request while an
 * approval, review or wait is pending) when no `released_by` compensation is registered.
 * Paths through a completed `released_by` or `settled_by` step, and paths ending in
 * `fault` or `compensate`, keep nothing to prove.
 */
export function unreleasedPath(graph: FlowGraph, hold: HoldDefinition): Unreleased | undefined {
  const placing = graph.steps.get(hold.placed_by);
  if (!placing) return undefined;
  const ends = new Set([...hold.released_by, ...hold.settled_by]);
  const releasers = new Set(hold.released_by);
  // By object: the placing step before it completes is not the same point as after a loop
  // back to it.
  const parents = new Map<HoldState, { state: HoldState; via: EdgeKind } | null>();
  const seen = new Set<string>();
  const queue: HoldState[] = [];
  const pathTo = (state: HoldState): FlowPath => {
    const path: { step: string; via: EdgeKind | 'start' }[] = [];
    for (let at: HoldState | undefined = state; at !== undefined;) {
      const parent = parents.get(at);
      path.unshift({ step: at.node, via: parent ? parent.via : 'start' });
      at = parent?.state;
    }
    return path;
  };
  const start: HoldState = { node: placing.id, live: false };
  parents.set(start, null);
  const enter = (from: HoldState, to: HoldState, via: EdgeKind): void => {
    if (seen.has(key(to))) return;
    seen.add(key(to));
    parents.set(to, { state: from, via });
    queue.push(to);
  };
  for (const edge of placing.outgoing)
    if (isCompleting(edge))
      enter(start, { node: edge.to, live: liveAfter(placing, false, releasers) }, edge.kind);

  while (queue.length > 0) {
    const state = queue.shift()!;
    if (state.node === 'complete') return { path: pathTo(state), ending: 'complete' };
    if (state.node === 'cancel') {
      if (!state.live) return { path: pathTo(state), ending: 'cancel' };
      continue;
    }
    const step = graph.steps.get(state.node);
    if (!step) continue; // fault or compensate: a faulted run may keep the hold
    if (!state.live && acceptsCancel(step))
      return { path: pathTo(state), ending: 'cancel_request' };
    for (const edge of step.outgoing) {
      const completes = isCompleting(edge);
      if (completes && ends.has(step.id)) continue; // released or settled on this path
      const live = completes ? liveAfter(step, state.live, releasers) : state.live;
      enter(state, { node: edge.to, live }, edge.kind);
    }
  }
  return undefined;
}

/** The problem of one unreleased path, in words. */
function message(hold: HoldDefinition, { path, ending }: Unreleased): string {
  const by = [...hold.released_by, ...hold.settled_by].map((step) => `"${step}"`).join(' or ');
  const without = `without completing ${by || 'a release or settlement'}`;
  const how =
    ending === 'complete'
      ? `the run can complete ${without}`
      : `${ending === 'cancel' ? 'the run can end cancelled' : `a cancel request while "${path.at(-1)!.step}" waits can end the run cancelled`} ${without} and with no releasing compensation registered`;
  return `hold "${hold.id}": after "${hold.placed_by}" places it, ${how} (runs ending faulted may keep it): ${describePath(path)}`;
}

/**
 * Checks the holds: `placed_by` names a step of a stage, `released_by` and `settled_by`
 * steps or compensations (`hold_unknown_step`), and each hold is released or settled on
 * every path that does not end faulted (`hold_not_released`, at the hold, with the
 * shortest path that keeps it).
 */
export function checkHolds(
  scenario: ScenarioDefinition,
  graph: FlowGraph,
  source: YamlSource,
): Problem[] {
  const problems: Problem[] = [];
  scenario.holds.forEach((hold, index) => {
    let known = true;
    const placing = graph.steps.get(hold.placed_by);
    if (!placing || placing.stage === null) {
      known = false;
      problems.push(
        source.problemAt(
          'hold_unknown_step',
          `hold "${hold.id}" is placed by "${hold.placed_by}", which is not a step of any stage`,
          ['holds', index, 'placed_by'],
        ),
      );
    }
    for (const field of ['released_by', 'settled_by'] as const) {
      hold[field].forEach((stepId, position) => {
        if (graph.steps.has(stepId)) return;
        known = false;
        problems.push(
          source.problemAt(
            'hold_unknown_step',
            `hold "${hold.id}" names "${stepId}" in ${field}, which is neither a step of a stage nor a compensation`,
            ['holds', index, field, position],
          ),
        );
      });
    }
    if (!known) return;
    const unreleased = unreleasedPath(graph, hold);
    if (unreleased)
      problems.push(
        source.problemAt('hold_not_released', message(hold, unreleased), ['holds', index]),
      );
  });
  return problems;
}
