import type { Sha256Digest } from '@programrun/evidence';
import type { FlowGraph } from '../graph/flow-graph.js';
import type { InputValidator } from '../inputs/input-validator.js';
import { loadScenario, type LoadedScenario, type LoadOptions } from '../load-scenario.js';
import { ScenarioError, type Problem } from '../problem.js';
import type { ScenarioDefinition } from '../schema/scenario-schema.js';
import { buildMachine, type ScenarioMachine } from './build-machine.js';
import { pureTransitions } from './pure-transitions.js';
import { ExpressionEvaluator } from './expression-evaluator.js';
import { createPolicyStateEvaluator, type PolicyState } from './policy-state.js';
import type { EmittedFact, RunContext, RunEvent, RunInput } from './run-context.js';
import {
  describeRunState,
  type PersistedSnapshot,
  type PersistedStateValue,
  type RunState,
} from './run-state.js';

/** Result of one pure step of a run. */
export interface StepResult {
  /** False when the machine did not accept the event (nothing changed). */
  readonly accepted: boolean;
  readonly snapshot: PersistedSnapshot;
  /** Lifecycle facts emitted, in order. */
  readonly facts: readonly EmittedFact[];
  readonly state: RunState;
}

/** A compiled scenario: the machine plus everything the engine needs to run it. */
export interface CompiledScenario {
  readonly id: string;
  readonly digest: Sha256Digest;
  readonly definition: ScenarioDefinition;
  readonly graph: FlowGraph;
  /** The pure XState v5 machine (no invoke, no after). */
  readonly machine: ScenarioMachine;
  readonly inputs: InputValidator;
  readonly evaluator: ExpressionEvaluator;
  /** Starts a run: runs every instant step until the first wait or the end. */
  start(input: RunInput): StepResult;
  /** Applies one event to a persisted snapshot; pure. */
  transition(snapshot: PersistedSnapshot, event: RunEvent): StepResult;
  /** Summary of a persisted snapshot. */
  describe(snapshot: PersistedSnapshot): RunState;
  /** Policy decision, rule outcomes and controls for a context. */
  policyState(context: RunContext): PolicyState;
}

type Snapshot = ReturnType<ScenarioMachine['resolveState']>;

function collectFacts(actions: readonly { type: string; params?: unknown }[]): EmittedFact[] {
  return actions.flatMap((action) =>
    action.type === 'xstate.emit' ? [(action.params as { event: EmittedFact }).event] : [],
  );
}

function persist(snapshot: Snapshot): PersistedSnapshot {
  return { value: snapshot.value as PersistedStateValue, context: snapshot.context as RunContext };
}

/**
 * Compiles a loaded scenario (or scenario text) into a pure XState v5 machine with its
 * digest and graph. Throws {@link ScenarioError} holding every problem when the text
 * does not load; use {@link safeCompile} to get problems as data instead.
 *
 * @example
 * ```ts
 * const compiled = compile(await readFile('scenarios/wallet-delivery@v1.yaml', 'utf8'));
 * const inputs = { amount: '125.00', destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' };
 * const { state, facts } = compiled.start({ environment: 'test', inputs });
 * state.awaiting; // { kind: 'handoff', step: 'screen_destination', party: 'chain_analytics', attempt: 1 }
 * ```
 */
export function compile(
  scenario: string | LoadedScenario,
  options: LoadOptions = {},
): CompiledScenario {
  const result = safeCompile(scenario, options);
  if (!result.ok) throw new ScenarioError(result.problems);
  return result.compiled;
}

/** Result of {@link safeCompile}. */
export type CompileResult =
  | { readonly ok: true; readonly compiled: CompiledScenario }
  | { readonly ok: false; readonly problems: readonly Problem[] };

/**
 * Like {@link compile} but returns problems instead of throwing.
 *
 * @example
 * ```ts
 * const result = safeCompile(text);
 * if (!result.ok) console.log(result.problems.map(formatProblem).join('\n'));
 * ```
 */
export function safeCompile(
  scenario: string | LoadedScenario,
  options: LoadOptions = {},
): CompileResult {
  let loaded: LoadedScenario;
  if (typeof scenario === 'string') {
    const result = loadScenario(scenario, options);
    if (!result.ok) return { ok: false, problems: result.problems };
    loaded = result.scenario;
  } else {
    loaded = scenario;
  }
  return { ok: true, compiled: compileLoaded(loaded) };
}

function compileLoaded(loaded: LoadedScenario): CompiledScenario {
  const evaluator = new ExpressionEvaluator(loaded.expressions);
  const { definition, graph } = loaded;
  const machine = buildMachine({
    scenario: definition,
    graph,
    evaluator,
    rules: new Map(definition.policy.map((rule) => [rule.id, rule])),
  });
  const describe = (snapshot: PersistedSnapshot): RunState => describeRunState(graph, snapshot);
  // The XState snapshot each persisted snapshot came from: a store that hands back the
  // same object (the memory store, a host's cache) skips resolveState on the next signal.
  const resolved = new WeakMap<PersistedSnapshot, Snapshot>();
  const steps = pureTransitions(machine);
  const result = (
    accepted: boolean,
    next: Snapshot,
    actions: readonly { type: string }[],
  ): StepResult => {
    const snapshot = persist(next);
    resolved.set(snapshot, next);
    return { accepted, snapshot, facts: collectFacts(actions), state: describe(snapshot) };
  };
  return {
    id: loaded.id,
    digest: loaded.digest,
    definition,
    graph,
    machine,
    inputs: loaded.inputs,
    evaluator,
    start(input) {
      const [next, actions] = steps.initial(input);
      return result(true, next, actions);
    },
    transition(snapshot, event) {
      const restored =
        resolved.get(snapshot) ??
        machine.resolveState({ value: snapshot.value, context: snapshot.context });
      const [next, actions] = steps.next(restored, event);
      return result(next !== restored, next, actions);
    },
    describe,
    policyState: createPolicyStateEvaluator(definition, evaluator),
  };
}
