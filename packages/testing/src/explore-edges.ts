import fc from 'fast-check';
import type { CompiledScenario } from '@programrun/dsl';
import { inputsArbitrary } from './inputs-arbitrary.js';
import { runTrace, type RunTraceOptions, type Trace } from './run-trace.js';
import { scenarioEdges } from './scenario-edges.js';
import type { PlanAction, SignalPlan } from './signal-plan.js';
import { traceEdges } from './trace-edges.js';

/** A case the search found: the inputs and plan of a trace that took an edge no earlier one did. */
export interface DirectedCase {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly plan: SignalPlan;
  /** The seed of the run's ids (the checker's cases name it `seed-<n>`). */
  readonly seed: number;
  /** The edges this case took first. */
  readonly edges: readonly string[];
}

/** Options of {@link exploreEdges}. */
export interface ExploreOptions {
  /** Traces the search may run. @default 400 */
  readonly maxTraces?: number;
  /** Actions a plan may have. @default 24 */
  readonly maxActions?: number;
  /** Options of each trace (the drain bound). */
  readonly trace?: RunTraceOptions;
}

/**
 * What the search tries at each point of a run (its partners answer only when told): the
 * answer the simulated partner would send, an approval by two different people, a
 * rejection, a partner's refusal and failure, a confirmation without data, a deadline
 * lapsing, a cancel.
 */
const MOVES: readonly PlanAction[] = [
  { kind: 'answer', outcome: 'confirmed', data: 'simulated' },
  { kind: 'decide', decision: 'approve', approver: 0 },
  { kind: 'decide', decision: 'approve', approver: 1 },
  { kind: 'decide', decision: 'reject', approver: 2 },
  { kind: 'answer', outcome: 'rejected' },
  { kind: 'answer', outcome: 'failed' },
  { kind: 'answer', outcome: 'confirmed' },
  { kind: 'expire' },
  { kind: 'cancel' },
];

/** Where a trace's plan left the run: what it waited on when the drain began, or how it ended. */
function restingPoint(trace: Trace): string {
  const drain = trace.timeline.find((entry) => entry.phase === 'drain');
  const waited = drain?.waited;
  if (waited) return `${waited.kind} ${waited.step}`;
  return drain ? 'running' : trace.run.status;
}

/** The scenario's example inputs, or else the first valid inputs of a fixed seed. */
function baseInputs(compiled: CompiledScenario): Readonly<Record<string, unknown>> {
  const example = compiled.definition.example_inputs as Record<string, unknown> | undefined;
  if (example !== undefined && compiled.inputs.validate(example).length === 0) return example;
  return fc.sample(inputsArbitrary(compiled), { seed: 1, numRuns: 1 })[0]!;
}

/**
 * Searches the scenario's runs for its edges, breadth first from the run as created: each
 * plan found so far that led somewhere new (an edge no earlier trace took, or a point to
 * rest the run had not rested at) is extended by every move, and each extension runs as a
 * trace that then drains to a final status (approving and letting partners answer, or
 * letting every deadline lapse). It returns, in the order found, the cases whose traces
 * took an edge first, so a check can spend its first runs on every edge the search
 * reached and the rest on random plans. Deterministic: the same scenario gives the same
 * cases.
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
  const maxTraces = options.maxTraces ?? 400;
  const maxActions = options.maxActions ?? 24;
  const total = scenarioEdges(compiled).length;
  const inputs = baseInputs(compiled);
  const covered = new Set<string>();
  const rested = new Set<string>();
  const found: DirectedCase[] = [];
  let traces = 0;

  /** Runs one plan; true when it led somewhere new (and so is worth extending). */
  const tryPlan = async (plan: SignalPlan): Promise<boolean> => {
    traces += 1;
    const trace = await runTrace(compiled, inputs, plan, 'seed-0', options.trace);
    const fresh = [...traceEdges(compiled, trace.records)].filter((edge) => !covered.has(edge));
    for (const edge of fresh) covered.add(edge);
    if (fresh.length > 0) found.push({ inputs, plan, seed: 0, edges: fresh });
    const point = `${plan.partnersAnswer} ${restingPoint(trace)}`;
    const newPoint = !rested.has(point);
    rested.add(point);
    return fresh.length > 0 || newPoint;
  };

  const frontier: SignalPlan[] = [];
  for (const partnersAnswer of [true, false])
    for (const drain of ['happy', 'expire'] as const) {
      const plan: SignalPlan = { partnersAnswer, actions: [], drain };
      if ((await tryPlan(plan)) && !partnersAnswer) frontier.push(plan);
    }
  while (frontier.length > 0 && traces < maxTraces && covered.size < total) {
    const prefix = frontier.shift()!;
    if (prefix.actions.length >= maxActions) continue;
    for (const move of MOVES) {
      if (traces >= maxTraces) break;
      // Onwards the happy way: the `expire` move lets the deadline at hand lapse.
      const plan: SignalPlan = { ...prefix, actions: [...prefix.actions, move], drain: 'happy' };
      if (await tryPlan(plan)) frontier.push(plan);
    }
  }
  return found;
}
