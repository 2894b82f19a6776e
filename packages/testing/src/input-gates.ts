// The edges decided by the inputs alone: a gate rule, a route alternative or a step's
// `when` that reads nothing but `inputs` (and records whose data reads only inputs). Evaluating those conditions on many valid inputs
// (no engine, no run) finds inputs that take each such edge, which the directed search
// starts from, and names the edges no valid input tried can take.
import fc from 'fast-check';
import { initialRunContext, type CompiledScenario, type RunContext } from '@programrun/dsl';
import type { JsonObject } from '@programrun/evidence';
import { boundaryInputs } from './boundary-inputs.js';
import { containsReads, withContainedText } from './contains-inputs.js';
import { gateReads, recordsRead, type GateReads } from './gate-reads.js';
import { inputsArbitrary } from './inputs-arbitrary.js';
import { flowEdgeId, ruleEdgeId } from './scenario-edges.js';

/** Valid inputs sampled (with a fixed seed) to decide the input-only edges. */
export const INPUT_SAMPLES = 300;

/** An edge the inputs alone decide, and the test its inputs must pass. */
interface InputEdge {
  readonly id: string;
  /** The step it leaves. */
  readonly step: string;
  /** For the `pass` of a rule that denies otherwise: a run failing it ends at that gate. */
  readonly blocks?: true;
  readonly takes: (context: RunContext) => boolean;
}

/** What the inputs alone decide about a scenario's edges. */
export interface InputGates {
  /** For each input-only edge some input took: the first such input. */
  readonly witnesses: ReadonlyMap<string, JsonObject>;
  /**
   * The input-only edges no input tried takes while passing the deny rules of the gates
   * before them (a run with any of those inputs is denied earlier, or never takes it).
   */
  readonly untaken: readonly string[];
  /** How many valid inputs were tried. */
  readonly tried: number;
}

const READS_RUN_STATE = /\b(handoffs|routes|approvals|checks|attempts|progress)\b/;

interface RuleLike {
  readonly id: string;
  readonly when: string;
  readonly otherwise: string;
}
interface StepLike {
  readonly id: string;
  readonly kind: string;
  readonly when?: string;
  readonly rules?: readonly string[];
  readonly alternatives?: readonly { readonly id: string; readonly when: string }[];
  readonly data?: Readonly<Record<string, string>>;
}

/** The record steps whose data the inputs alone decide (they read inputs and such records), in order. */
function inputRecords(steps: readonly StepLike[]): StepLike[] {
  const decided = new Set<string>();
  const records: StepLike[] = [];
  for (const step of steps) {
    if (step.kind !== 'record' || step.data === undefined) continue;
    const sources = Object.values(step.data);
    if (!sources.every((source) => decidedByInputs(source, decided))) continue;
    decided.add(step.id);
    records.push(step);
  }
  return records;
}

/** Whether `source` reads nothing but inputs and the `records` already decided by them. */
function decidedByInputs(source: string, records: ReadonlySet<string>): boolean {
  if (READS_RUN_STATE.test(source)) return false;
  return recordsRead(source).every((step) => records.has(step));
}

/** The edges of a scenario that its inputs alone decide, each with its test. */
function inputEdges(compiled: CompiledScenario, records: readonly StepLike[]): InputEdge[] {
  const { policy, stages } = compiled.definition;
  const rules = new Map((policy as readonly RuleLike[]).map((rule) => [rule.id, rule]));
  const decided = new Set(records.map((step) => step.id));
  const inputsOnly = (source: string): boolean => decidedByInputs(source, decided);
  const holds = (source: string) => (context: RunContext) =>
    compiled.evaluator.condition(source, context).value;
  const edges: InputEdge[] = [];
  for (const step of stages.flatMap((stage) => stage.steps) as readonly StepLike[]) {
    if (step.when !== undefined && inputsOnly(step.when)) {
      const when = holds(step.when);
      edges.push({
        id: flowEdgeId({ from: step.id, kind: 'skip' }),
        step: step.id,
        takes: (c) => !when(c),
      });
    }
    for (const rule of step.kind === 'check' ? (step.rules ?? []) : []) {
      const definition = rules.get(rule);
      if (definition === undefined || !inputsOnly(definition.when)) continue;
      const when = holds(definition.when);
      edges.push(
        {
          id: ruleEdgeId(step.id, rule, 'pass'),
          step: step.id,
          ...(definition.otherwise === 'deny' ? { blocks: true as const } : {}),
          takes: (c) => when(c),
        },
        { id: ruleEdgeId(step.id, rule, 'fail'), step: step.id, takes: (c) => !when(c) },
      );
    }
    const alternatives = step.kind === 'route' ? (step.alternatives ?? []) : [];
    if (alternatives.length === 0 || !alternatives.every(({ when }) => inputsOnly(when))) continue;
    const guards = alternatives.map(({ when }) => holds(when));
    // The first alternative whose guard holds is chosen.
    const chosen = (context: RunContext) => guards.findIndex((guard) => guard(context));
    alternatives.forEach((alternative, index) =>
      edges.push({
        id: flowEdgeId({ from: step.id, kind: 'route', alternative: alternative.id }),
        step: step.id,
        takes: (c) => chosen(c) === index,
      }),
    );
    edges.push({
      id: flowEdgeId({ from: step.id, kind: 'no_route' }),
      step: step.id,
      takes: (c) => chosen(c) < 0,
    });
  }
  return edges;
}

/** The run context of `inputs` before anything happened, with the records the inputs decide. */
function contextOf(
  compiled: CompiledScenario,
  inputs: JsonObject,
  records: readonly StepLike[],
): RunContext {
  let context = initialRunContext({ environment: 'test', inputs });
  for (const step of records) {
    const result = compiled.evaluator.fields(step.data!, context);
    const data = (result.ok ? result.value : {}) as JsonObject;
    context = { ...context, records: { ...context.records, [step.id]: data } };
  }
  return context;
}

/**
 * The sampled inputs that change when the text their conditions look for
 * (`inputs.qr.contains("5802" + inputs.country)`) is written into them: once for the
 * conditions of the steps before each such step (so its own can still fail), once for all.
 */
function withTextLookedFor(
  compiled: CompiledScenario,
  samples: readonly JsonObject[],
  records: readonly StepLike[],
): JsonObject[] {
  const reads = containsReads(compiled);
  if (reads.length === 0) return [];
  const cutoffs = [...new Set(reads.map(({ order }) => order)), Infinity];
  const seen = new Set(samples.map((inputs) => JSON.stringify(inputs)));
  const changed: JsonObject[] = [];
  for (const inputs of samples) {
    const context = contextOf(compiled, inputs, records);
    for (const cutoff of cutoffs) {
      const before = reads.filter(({ order }) => order < cutoff);
      if (before.length === 0) continue;
      const written = withContainedText(compiled, inputs, context, before);
      const key = JSON.stringify(written);
      if (seen.has(key)) continue;
      seen.add(key);
      changed.push(written);
    }
  }
  return changed;
}

/**
 * Decides the scenario's input-only edges (a gate rule, a route alternative or a step's
 * `when` that reads only `inputs`) on `extra` inputs and then on `INPUT_SAMPLES` valid
 * inputs of a fixed seed (boundary amounts mixed in), then on those inputs with the text
 * their conditions look for written in (`withContainedText`): the first input that takes each edge
 * (preferring one that passes the deny rules of the gates before it, so a run gets there),
 * and the edges none of those takes (an alternative an earlier one's guard always wins, a rule no
 * valid input fails). Deterministic.
 *
 * @example
 * ```ts
 * const gates = inputGates(compiled);
 * gates.witnesses.get('select_rail route local_clearing'); // inputs with account_scheme "local"
 * gates.untaken; // ['select_rail no_route']
 * ```
 */
export function inputGates(
  compiled: CompiledScenario,
  extra: readonly JsonObject[] = [],
  reads: GateReads = gateReads(compiled),
): InputGates {
  const steps = compiled.definition.stages.flatMap((stage) => stage.steps) as readonly StepLike[];
  const records = inputRecords(steps);
  const edges = inputEdges(compiled, records);
  const witnesses = new Map<string, JsonObject>();
  if (edges.length === 0) return { witnesses, untaken: [], tried: 0 };
  const arbitrary = inputsArbitrary(compiled, boundaryInputs(compiled, reads));
  const sampled = [...extra, ...fc.sample(arbitrary, { seed: 1, numRuns: INPUT_SAMPLES })];
  const samples = [...sampled, ...withTextLookedFor(compiled, sampled, records)];
  const contexts = samples.map((inputs) => contextOf(compiled, inputs, records));
  // Rules of earlier gates that deny when they fail: a witness that passes them all
  // reaches its edge; only when none does, any witness will do (as a start for the search).
  const order = new Map(steps.map((step, index) => [step.id, index]));
  const blockers = edges.filter((edge) => edge.blocks === true);
  const passesEarlier = (edge: InputEdge, context: RunContext): boolean =>
    blockers.every((pass) => order.get(pass.step)! >= order.get(edge.step)! || pass.takes(context));
  let strictlyTaken = new Set<string>();
  for (const strict of [true, false]) {
    if (!strict) strictlyTaken = new Set(witnesses.keys());
    for (const [index, context] of contexts.entries())
      for (const edge of edges)
        if (
          !witnesses.has(edge.id) &&
          edge.takes(context) &&
          (!strict || passesEarlier(edge, context))
        )
          witnesses.set(edge.id, samples[index]!);
  }
  return {
    witnesses,
    untaken: edges.filter(({ id }) => !strictlyTaken.has(id)).map(({ id }) => id),
    tried: samples.length,
  };
}
