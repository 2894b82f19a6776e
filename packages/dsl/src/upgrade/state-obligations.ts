// What moving the runs waiting at one step of the old version must not break: the wait
// itself, the handoffs they were answered, the compensations they registered, the legs they
// posted, the data later steps read, and the new version's invariants.
import { describePath, findPath, isCompleting, type FlowPath } from '../graph/flow-graph.js';
import type { LoadedScenario } from '../load-scenario.js';
import type { Problem, ProblemCode } from '../problem.js';
import type { InvariantDefinition } from '../schema/invariant-schema.js';
import type { CompletedBefore } from './completed-before.js';
import { stepPath, waitsAt, type Side } from './upgrade-side.js';

/** A leg or compensation as compared across versions. */
const legsOf = (scenario: LoadedScenario, step: string): string =>
  JSON.stringify(
    scenario.definition.legs
      .filter((leg) => leg.step === step)
      .map(({ direction, amount, currency }) => [direction, amount, currency])
      .sort(),
  );

/** One old waiting step, where its runs go, and what they have done. */
export interface StateContext {
  readonly from: Side;
  readonly to: Side;
  readonly state: string;
  readonly target: string;
  readonly before: CompletedBefore;
  /** How a run reaches the state in the old version, in words. */
  readonly reached: string;
  readonly renamed: (id: string) => string;
  /** A party's id in the new version (the migration's `renames.parties`). */
  readonly renamedParty: (id: string) => string;
  readonly mappingAt: (code: ProblemCode, message: string) => Problem;
  /** The migration's inputs (field → CEL over the old run), each evaluated on the moved run. */
  readonly inputs: Readonly<Record<string, string>>;
  /** A problem at the migration's line giving an input. */
  readonly inputAt: (field: string, code: ProblemCode, message: string) => Problem;
}

/** Why moving the runs waiting at one state is not safe. */
export function stateProblems(context: StateContext): Problem[] {
  const { from, to, state, target, reached, mappingAt, renamedParty } = context;
  const oldStep = from.scenario.graph.steps.get(state)!;
  const newStep = to.scenario.graph.steps.get(target);
  const waiting = `runs waiting at "${state}" (${reached})`;
  if (!newStep || newStep.stage === null)
    return [
      mappingAt(
        'upgrade_unmapped_state',
        `${waiting} have no step to wait at in ${to.scenario.id}: map "${state}" under states, or keep its runs on ${from.scenario.id} under stay`,
      ),
    ];
  if (newStep.kind !== oldStep.kind || !waitsAt(to.scenario.graph, target))
    return [
      mappingAt(
        'upgrade_state_mismatch',
        `${waiting} would wait at ${newStep.kind} "${target}" in ${to.scenario.id}, and the pending ${oldStep.kind} would be dropped`,
      ),
    ];
  if (oldStep.kind === 'handoff') {
    const old = oldStep.definition as { party: string; action: string };
    const next = newStep.definition as { party: string; action: string };
    if (renamedParty(old.party) !== next.party || old.action !== next.action)
      return [
        mappingAt(
          'upgrade_state_mismatch',
          `${waiting} asked ${old.party} for ${old.action}; "${target}" in ${to.scenario.id} asks ${next.party} for ${next.action}`,
        ),
      ];
    if (target !== state)
      return [
        mappingAt(
          'upgrade_rerequests_handoff',
          `${waiting} sent the partner an idempotency key for "${state}"; waiting at "${target}" would send the request again under a new key (keep the step's id while runs wait there, or keep them on ${from.scenario.id})`,
        ),
      ];
  }
  return [
    ...missingData(context),
    ...unreadyInputs(context),
    ...rerequestedHandoffs(context),
    ...removedCompensations(context),
    ...changedLegs(context),
    ...to.scenario.definition.invariants.flatMap((invariant, index) =>
      brokenInvariant(context, invariant, index),
    ),
  ];
}

const READS = /\b(?:handoffs|records|approvals|routes)\.([a-z][a-z0-9_]*)/g;

/** The steps whose results a CEL expression reads. */
const readsOf = (expression: string): Set<string> =>
  new Set([...expression.matchAll(READS)].map(([, read]) => read!));

/**
 * Inputs the migration gives by reading a step's result that runs waiting at the state may
 * not have yet (not completed on every path to it): evaluated on such a run, the
 * expression would fail.
 */
function unreadyInputs(context: StateContext): Problem[] {
  const { from, state, before, reached, inputs, inputAt } = context;
  const problems: Problem[] = [];
  for (const [field, expression] of Object.entries(inputs)) {
    for (const read of readsOf(expression)) {
      if (!from.scenario.graph.steps.has(read) || before.always.has(read)) continue;
      problems.push(
        inputAt(
          field,
          'upgrade_missing_data',
          `runs waiting at "${state}" (${reached}) may not have completed "${read}", whose result input "${field}" reads: keep them on ${from.scenario.id} under stay, or read what every such run has`,
        ),
      );
    }
  }
  return problems;
}

/** The steps whose results the expressions of a new version's step read (its rules' too). */
function stepReads(scenario: LoadedScenario, id: string): Set<string> {
  const step = scenario.graph.steps.get(id)!.definition as { rules?: readonly string[] };
  const rules = scenario.definition.policy.filter((rule) => step.rules?.includes(rule.id));
  const legs = scenario.definition.legs.filter((leg) => leg.step === id);
  return readsOf(JSON.stringify([step, rules, legs]));
}

/**
 * Results of steps new in the new version that a step after the state reads, where a moved
 * run can get there without the new step completing (it was inserted before the state).
 */
function missingData(context: StateContext): Problem[] {
  const { from, to, state, target, reached, renamed } = context;
  const known = new Set([...from.scenario.graph.steps.keys()].map(renamed));
  const graph = to.scenario.graph;
  const problems: Problem[] = [];
  for (const reader of graph.order) {
    const reads = [...stepReads(to.scenario, reader)].filter(
      (read) => !known.has(read) && graph.steps.has(read),
    );
    for (const read of reads) {
      const path = findPath(
        graph,
        reader,
        (edge) => !(edge.from === read && isCompleting(edge)),
        target,
      );
      if (!path) continue;
      problems.push(
        to.source.problemAt(
          'upgrade_missing_data',
          `runs waiting at "${state}" (${reached}) never ran "${read}", new in ${to.scenario.id}, and "${reader}" reads its result: ${describePath(path)}`,
          stepPath(to.scenario, reader),
        ),
      );
    }
  }
  return problems;
}

/** Handoffs the run may have confirmed that the new version can request again from there. */
function rerequestedHandoffs(context: StateContext): Problem[] {
  const { from, to, state, target, before, reached, renamed } = context;
  const problems: Problem[] = [];
  for (const handoff of before.sometimes) {
    if (from.scenario.graph.steps.get(handoff)?.kind !== 'handoff') continue;
    const again = renamed(handoff);
    const newPath = to.scenario.graph.steps.has(again)
      ? findPath(to.scenario.graph, again, undefined, target)
      : undefined;
    // A loop of the old version that requests it again is not new.
    if (!newPath || findPath(from.scenario.graph, handoff, undefined, state)) continue;
    problems.push(
      to.source.problemAt(
        'upgrade_rerequests_handoff',
        `runs waiting at "${state}" may have had "${handoff}" confirmed (${reached}); in ${to.scenario.id} they would request it again: ${describePath(newPath)}`,
        stepPath(to.scenario, again),
      ),
    );
  }
  return problems;
}

/** Compensations the run may have registered that the new version no longer has. */
function removedCompensations(context: StateContext): Problem[] {
  const { from, to, state, before, renamed } = context;
  const problems: Problem[] = [];
  for (const step of before.sometimes) {
    const compensate = (from.scenario.graph.steps.get(step)?.definition as { compensate?: string })
      .compensate;
    if (compensate === undefined) continue;
    const kept = to.scenario.graph.steps.get(renamed(compensate));
    if (kept && kept.stage === null) continue;
    problems.push(
      from.source.problemAt(
        'upgrade_compensation_removed',
        `runs waiting at "${state}" may have registered compensation "${compensate}" (by completing "${step}"), which ${to.scenario.id} does not have`,
        stepPath(from.scenario, step),
      ),
    );
  }
  return problems;
}

/** Legs of steps (and registered compensations) the run may have posted that changed. */
function changedLegs(context: StateContext): Problem[] {
  const { from, to, state, before, renamed } = context;
  const posted = new Set<string>();
  for (const step of before.sometimes) {
    posted.add(step);
    const compensate = (from.scenario.graph.steps.get(step)?.definition as { compensate?: string })
      .compensate;
    if (compensate !== undefined) posted.add(compensate);
  }
  const problems: Problem[] = [];
  for (const step of posted) {
    const old = legsOf(from.scenario, step);
    if (old === legsOf(to.scenario, renamed(step))) continue;
    const index = to.scenario.definition.legs.findIndex((leg) => leg.step === renamed(step));
    problems.push(
      (index >= 0 ? to : from).source.problemAt(
        'upgrade_posted_legs_changed',
        `runs waiting at "${state}" may have posted the legs of "${step}" as ${from.scenario.id} values them; ${to.scenario.id} values them differently, so what it reverses or settles would not balance what was posted`,
        index >= 0 ? ['legs', index] : stepPath(from.scenario, step),
      ),
    );
  }
  return problems;
}

/**
 * Whether the old version proves that its step `needed` completes before `then` starts
 * (a precedence invariant of its own naming both, under their new ids): then every run
 * of it that completed `then` had completed `needed` first.
 */
function provenBefore(context: StateContext, then: string, needed: string): boolean {
  const { from, renamed } = context;
  return from.scenario.definition.invariants.some(
    (invariant) =>
      'then' in invariant &&
      invariant.then.some((step) => renamed(step) === then) &&
      invariant.before.some((step) => renamed(step) === needed),
  );
}

/** How the new version's invariant breaks for runs moved from the state, if it does. */
function brokenInvariant(
  context: StateContext,
  invariant: InvariantDefinition,
  index: number,
): Problem[] {
  const { to, state, target, before, reached, renamed } = context;
  const graph = to.scenario.graph;
  const always = new Set([...before.always].map(renamed));
  const sometimes = new Set([...before.sometimes].map(renamed));
  const at = (message: string, path?: FlowPath): Problem =>
    to.source.problemAt(
      'upgrade_invariant_violated',
      `invariant "${invariant.id}" breaks for runs waiting at "${state}" (${reached})${path ? `, then in ${to.scenario.id}: ${describePath(path)}` : ''}: ${message}`,
      ['invariants', index],
    );
  const notCompleting = (steps: readonly string[]) => (edge: { from: string; kind: string }) =>
    !(steps.includes(edge.from) && isCompleting(edge as never));
  if ('then' in invariant) {
    const problems: Problem[] = [];
    for (const then of invariant.then)
      for (const needed of invariant.before) {
        if (always.has(needed)) continue;
        // Done already: on a path that completed `then`, `needed` came first only if the
        // old version had it and proved the same precedence.
        if (sometimes.has(then) && !provenBefore(context, then, needed)) {
          problems.push(
            at(`"${then}" may have completed before "${needed}" completed, on a path to it`),
          );
          continue;
        }
        if (then === target) {
          problems.push(
            at(`"${then}" has started and "${needed}" has not completed on every path to it`),
          );
          continue;
        }
        const path = findPath(graph, then, notCompleting([needed]), target);
        if (path) problems.push(at(`"${then}" can start before "${needed}" completes`, path));
      }
    return problems;
  }
  if ('never_together' in invariant) {
    const problems: Problem[] = [];
    for (const done of invariant.never_together.filter((step) => sometimes.has(step)))
      for (const other of invariant.never_together) {
        if (other === done) continue;
        const path = findPath(graph, other, undefined, target);
        if (path)
          problems.push(at(`"${done}" may have completed, and "${other}" can complete too`, path));
      }
    return problems;
  }
  if ('eventually' in invariant) {
    const trigger = invariant.after.find((step) => sometimes.has(step));
    if (trigger === undefined) return [];
    const path = findPath(graph, 'complete', notCompleting(invariant.eventually), target);
    return path
      ? [
          at(
            `"${trigger}" may have completed, and the run can complete without ${invariant.eventually.join(' or ')}`,
            path,
          ),
        ]
      : [];
  }
  // Approval invariants bind each step's own quorum: the new version's load proves them.
  return [];
}
