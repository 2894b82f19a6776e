import type { CompiledScenario } from '@programrun/dsl';
import type { AwaitingRecord } from '@programrun/engine';
import type { JsonObject } from '@programrun/evidence';
import { answerDataChanges } from './answer-data.js';
import { fewestCases } from './fewest-cases.js';
import { gateReads, type GateReads } from './gate-reads.js';
import { declaredLegs } from './money-conservation.js';
import { restingPoint, restingWait } from './resting-point.js';
import { runTrace, type RunTraceOptions, type Trace } from './run-trace.js';
import { baseInputs, startingInputs } from './search-starts.js';
import { scenarioEdges } from './scenario-edges.js';
import type { PlanAction, SignalPlan } from './signal-plan.js';
import { traceEdges } from './trace-edges.js';

/**
 * A case the search found: the inputs and plan of a trace that took an edge no earlier one
 * did, or (listed after those) that no earlier one with the same inputs did.
 */
export interface DirectedCase {
  readonly inputs: JsonObject;
  readonly plan: SignalPlan;
  /** The seed of the run's ids (the checker's cases name it `seed-<n>`). */
  readonly seed: number;
  /** The edges this case took first. */
  readonly edges: readonly string[];
}

/** Options of {@link exploreEdges}. */
export interface ExploreOptions {
  /** Traces the search may run. @default 3000 */
  readonly maxTraces?: number;
  /** Actions a plan may have. @default 24 */
  readonly maxActions?: number;
  /** Options of each trace (the drain bound). */
  readonly trace?: RunTraceOptions;
  /**
   * Stops the search at the first trace this says yes to (one a property fails on): its
   * case is returned first, before the cases found until then, so a check that runs the
   * cases in order meets the failure at once instead of after a whole search.
   */
  readonly stopAt?: (trace: Trace) => boolean;
}

/**
 * What the search tries at each point of a run (its partners answer only when told): the
 * answer the simulated partner would send, approvals by five different people (makers and
 * checkers of two four-eyes approvals), a rejection, a partner's refusal and failure, a
 * confirmation without data, a deadline lapsing, a cancel. To these each scenario adds the
 * simulated answer with one field its conditions read changed (`answerDataChanges`).
 */
const MOVES: readonly PlanAction[] = [
  { kind: 'answer', outcome: 'confirmed', data: 'simulated' },
  { kind: 'decide', decision: 'approve', approver: 0 },
  { kind: 'decide', decision: 'approve', approver: 1 },
  { kind: 'decide', decision: 'approve', approver: 2 },
  { kind: 'decide', decision: 'approve', approver: 3 },
  { kind: 'decide', decision: 'approve', approver: 4 },
  { kind: 'decide', decision: 'reject', approver: 5 },
  { kind: 'answer', outcome: 'rejected' },
  { kind: 'answer', outcome: 'failed' },
  { kind: 'answer', outcome: 'confirmed' },
  { kind: 'expire' },
  { kind: 'cancel' },
];

/** The edges that complete a step with money legs: its success, route choices, its compensation run. */
function moneyEdges(compiled: CompiledScenario): Set<string> {
  const steps = new Set(declaredLegs(compiled).map((leg) => leg.step));
  return new Set(
    scenarioEdges(compiled)
      .filter(
        ({ id, kind, step }) =>
          steps.has(step) &&
          (kind === 'compensation' || id === `${step} success` || id.startsWith(`${step} route `)),
      )
      .map(({ id }) => id),
  );
}

/** Inputs and a plan the search runs. */
interface Start {
  readonly inputs: JsonObject;
  readonly plan: SignalPlan;
}

/** A plan worth extending, with what its run waited on when the plan ended. */
interface Frontier extends Start {
  readonly waited: AwaitingRecord | null;
  /** Its search space: 0 for the base inputs and inputs that led nowhere new. */
  readonly space: number;
}

/**
 * The moves that can do something where the run waits: answers at a handoff (data changes
 * only for the fields read of that step's answer), decisions at an approval; a deadline
 * lapsing and a cancel anywhere.
 */
function movesAt(
  waited: AwaitingRecord | null,
  moves: readonly PlanAction[],
  reads: GateReads,
): PlanAction[] {
  if (waited === null) return [...moves];
  return moves.filter((move) => {
    if (move.kind === 'answer') {
      if (waited.kind !== 'handoff') return false;
      const data = move.data;
      return (
        typeof data !== 'object' ||
        (reads.handoffFields.get(waited.step) ?? []).includes(data.field)
      );
    }
    if (move.kind === 'decide') return waited.kind === 'approval';
    return true;
  });
}

/**
 * Searches the scenario's runs for its edges, breadth first from the run as created: each
 * plan found so far that led somewhere new (an edge no earlier trace took, or a point to
 * rest the run had not rested at) is extended by every move, and each extension runs as a
 * trace that then drains to a final status (approving and letting partners answer, or
 * letting every deadline lapse). It returns, in the order found, the fewest cases that
 * take every edge the search took first, then those that completed a step with money legs
 * first for inputs of their own (inputs that led somewhere new are searched on their own),
 * so a check can spend its first runs on every edge the search reached and the rest on
 * random plans. Deterministic: the same scenario gives the same cases. With `stopAt`, the
 * search ends at the first trace a property fails on, and that case comes first.
 *
 * @example
 * ```ts
 * const cases = await exploreEdges(compiled);
 * cases[0]!.edges; // e.g. ['qr_intake success', 'qr_intake rule cross_border pass', …]
 * ```
 */
export async function exploreEdges(
  compiled: CompiledScenario,
  options: ExploreOptions = {},
): Promise<DirectedCase[]> {
  const maxTraces = options.maxTraces ?? 3000;
  const maxActions = options.maxActions ?? 24;
  const reads = gateReads(compiled);
  const moves: PlanAction[] = [
    ...MOVES,
    ...answerDataChanges(reads).map((data): PlanAction => ({
      kind: 'answer',
      outcome: 'confirmed',
      data,
    })),
  ];
  const covered = new Set<string>();
  const rested = new Set<string>();
  const found: DirectedCase[] = [];
  const coveredIn = new Map<number, Set<string>>();
  const movesMoney = moneyEdges(compiled);
  const foundAgain: DirectedCase[] = [];
  /** Every edge each case of `found` took (not only the ones it took first). */
  const takenBy: ReadonlySet<string>[] = [];
  let traces = 0;
  /** Whether the last plan tried took an edge no earlier one did. */
  let tookFresh = false;
  /** Whether the last plan tried rested somewhere no earlier one did. */
  let restedNew = false;
  /** The case `stopAt` stopped the search at. */
  let stoppedAt: DirectedCase | undefined;
  /** Whether the search may run another trace. */
  const more = () => traces < maxTraces && stoppedAt === undefined;

  /**
   * Runs one plan; where it rested when it led somewhere new (and so is worth extending),
   * else undefined. Points to rest at are told apart per `space`: inputs that took an
   * edge of their own are searched as a space of their own.
   */
  const tryPlan = async (
    { inputs, plan }: Start,
    space: number,
    leaf = false,
  ): Promise<Frontier | undefined> => {
    traces += 1;
    const trace = await runTrace(compiled, inputs, plan, 'seed-0', options.trace);
    const taken = traceEdges(compiled, trace.records);
    if (options.stopAt?.(trace)) stoppedAt = { inputs, plan, seed: 0, edges: [...taken] };
    const fresh = [...taken].filter((edge) => !covered.has(edge));
    for (const edge of fresh) covered.add(edge);
    if (fresh.length > 0) {
      found.push({ inputs, plan, seed: 0, edges: fresh });
      takenBy.push(taken);
    }
    tookFresh = fresh.length > 0;
    if (space !== 0) {
      // Inputs of their own value money legs their own way (a currency, an amount): a case
      // that completes a step with legs for the first time with them comes after the first ones.
      const mine = coveredIn.get(space) ?? new Set<string>();
      coveredIn.set(space, mine);
      const freshHere = [...taken].filter((edge) => !mine.has(edge) && movesMoney.has(edge));
      for (const edge of taken) mine.add(edge);
      if (fresh.length === 0 && freshHere.length > 0)
        foundAgain.push({ inputs, plan, seed: 0, edges: freshHere });
    }
    const point = `${space} ${plan.partnersAnswer} ${restingPoint(compiled, trace)}`;
    const newPoint = !rested.has(point);
    restedNew = newPoint;
    // A leaf claims no point, so the plans that reach it with data search on from there.
    if (!leaf) rested.add(point);
    return fresh.length > 0 || newPoint
      ? { inputs, plan, waited: restingWait(trace), space }
      : undefined;
  };

  const frontier: Frontier[] = [];
  const { inputs: starts, untaken } = startingInputs(compiled, baseInputs(compiled), reads);
  // Done once every edge is taken but those no valid input tried takes.
  const wanted = scenarioEdges(compiled).filter(({ id }) => !untaken.includes(id)).length;
  const done = () => [...covered].filter((edge) => !untaken.includes(edge)).length >= wanted;
  for (const [index, inputs] of starts.entries()) {
    // Partners answering first: inputs that lead somewhere new get a search of their own.
    let space = 0;
    for (const drain of ['happy', 'expire'] as const) {
      if (!more()) break;
      await tryPlan({ inputs, plan: { partnersAnswer: true, actions: [], drain } }, index);
      if (tookFresh) space = index;
    }
    for (const drain of ['happy', 'expire'] as const) {
      if (!more()) break;
      const next = await tryPlan(
        { inputs, plan: { partnersAnswer: false, actions: [], drain } },
        space,
      );
      if (next) frontier.push(next);
    }
  }
  while (frontier.length > 0 && more() && !done()) {
    const { inputs, plan: prefix, waited, space } = frontier.shift()!;
    if (prefix.actions.length >= maxActions) continue;
    for (const move of movesAt(waited, moves, reads)) {
      if (!more()) break;
      // Onwards the happy way: the `expire` move lets the deadline at hand lapse. After a
      // changed answer, the partners after it answer, so the gate that reads it is reached.
      const changed = move.kind === 'answer' && typeof move.data === 'object';
      const plan: SignalPlan = {
        ...prefix,
        actions: [...prefix.actions, move],
        drain: changed ? 'answer' : 'happy',
      };
      // A confirmation without data is a leaf: it shows what a gate does with nothing to
      // read, and a run that goes on from it has none of its partners' data.
      const bare = move.kind === 'answer' && move.outcome === 'confirmed' && !move.data;
      const next = await tryPlan({ inputs, plan }, space, bare);
      if (bare) continue;
      // A changed answer that led nowhere new is a leaf: what it changes shows at the gate
      // its drain reaches; one that took an edge first is searched on (the path a shortfall
      // opens), like any other plan.
      if (!next || (changed && !restedNew && !tookFresh)) continue;
      frontier.push(next);
      // From a new point, the same moves with partners answering and every later deadline
      // left to lapse: the loops a lapsing approval re-enters (a quote locked again).
      if (more())
        await tryPlan({ inputs, plan: { ...plan, partnersAnswer: true, drain: 'expire' } }, space);
    }
  }
  const cases = [...fewestCases(found, takenBy), ...foundAgain];
  return stoppedAt ? [stoppedAt, ...cases] : cases;
}
