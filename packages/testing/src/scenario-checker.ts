import fc from 'fast-check';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  EngineError,
  seededIds,
  type Engine,
  type Scope,
} from '@programrun/engine';
import { createKeySet, privateJwkFromSeed, type EvidenceKeySet } from '@programrun/evidence';
import { answerDataChanges } from './answer-data.js';
import { boundaryInputs } from './boundary-inputs.js';
import { CheckError } from './check-error.js';
import {
  assertCheckOptions,
  MAX_DIRECTED_CASES,
  resolveNumRuns,
  selectProperties,
  type CheckOptions,
  type PropertyName,
} from './check-options.js';
import { PROPERTY_DESCRIPTIONS, TRACE_CHECKS } from './check-properties.js';
import { replayLines, type PropertyResult } from './check-report.js';
import { determinismViolations } from './determinism.js';
import { createEdgeCoverage, type CoverageReport } from './edge-coverage.js';
import { exploreEdges } from './explore-edges.js';
import { formatTimeline } from './format-timeline.js';
import { gateReads } from './gate-reads.js';
import { inputGates } from './input-gates.js';
import { inputsArbitrary } from './inputs-arbitrary.js';
import { invalidInputsArbitrary, type NearMissInputs } from './invalid-inputs-arbitrary.js';
import { declaredLegs } from './money-conservation.js';
import { runTrace, type RunTraceOptions, type Trace } from './run-trace.js';
import { signalPlanArbitrary, type SignalPlan } from './signal-plan.js';
import { terminationBound } from './termination.js';

/** One generated trace case: inputs, a plan, and the seed of the run's ids. */
export interface TraceCase {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly plan: SignalPlan;
  readonly seed: number;
}

/** Checks the properties of one scenario one at a time, sharing traces between them. */
export interface ScenarioChecker {
  readonly scenario: string;
  readonly numRuns: number;
  readonly seed: number;
  /** The selected properties, in check order. */
  readonly properties: readonly PropertyName[];
  /** Traces run through the engine so far. */
  traces(): number;
  /** The scenario's edges and how many of the traces so far took each. */
  coverage(): CoverageReport;
  /** Checks one property (one fast-check run with the checker's seed). */
  check(name: PropertyName): Promise<PropertyResult>;
}

/** A property broken by one case; its message lists the violations. */
class Violation extends Error {
  readonly violations: readonly string[];
  constructor(violations: readonly string[]) {
    super(violations.join('\n'));
    this.violations = violations;
  }
}

/** What a property needs: cases, what a case breaks, and a case told as a timeline. */
interface PropertySpec<T> {
  readonly arbitrary: fc.Arbitrary<T>;
  /** Cases run first, before the generated ones (within the same number of runs). */
  readonly examples?: () => Promise<[T][]>;
  readonly violations: (value: T) => Promise<string[]>;
  readonly explain: (value: T) => Promise<string>;
}

const INPUTS_SCOPE: Scope = { account: 'acct_inputs', environment: 'test' };
let sharedKeys: EvidenceKeySet | undefined;
/** A fixed evidence key: signing is deterministic, so traces and bundles replay exactly. */
const evidenceKeys = (): EvidenceKeySet =>
  (sharedKeys ??= createKeySet([
    { key: privateJwkFromSeed(new Uint8Array(32).fill(7)), status: 'active' },
  ]));
const randomSeed = (): number => Math.floor(Math.random() * 0x8000_0000);

/**
 * A checker for one scenario: resolves the options once (runs, seed, properties) and
 * checks properties one at a time with fast-check. Trace properties share one case
 * arbitrary and the same seed, so each case's trace runs once and every property reads
 * it. `checkScenario` and `scenarioSuite` are built on it.
 *
 * @example
 * ```ts
 * const checker = createScenarioChecker(compiled, { numRuns: 50 });
 * const result = await checker.check('termination');
 * if (!result.passed) console.log(result.failure!.timeline);
 * ```
 */
export function createScenarioChecker(
  compiled: CompiledScenario,
  options: CheckOptions = {},
): ScenarioChecker {
  assertCheckOptions(options);
  const numRuns = resolveNumRuns(options.numRuns);
  const seed = options.seed ?? randomSeed();
  const properties = selectProperties(options.properties);
  const keys = evidenceKeys();
  const jwks = keys.publicJwks();
  const legs = declaredLegs(compiled);
  const runOptions: RunTraceOptions = {
    drainRounds: terminationBound(compiled),
    evidenceKeys: keys,
    contexts: legs.length > 0,
  };
  const cache = new Map<string, Promise<Trace>>();
  const capacity = Math.max(256, numRuns + 64);
  let traces = 0;
  const reads = gateReads(compiled);
  const gates = inputGates(compiled, [], reads);
  // A named route alternative no input selects is dead flow; any other such edge (a
  // fallback no input falls through to, a rule no input fails) is unreachable by design.
  const isAlternative = (id: string) => / route [a-z0-9_]+$/.test(id);
  const coverage = createEdgeCoverage(compiled, {
    unreachable: new Map(
      gates.untaken
        .filter((id) => !isAlternative(id))
        .map((id) => [
          id,
          `no valid input of ${gates.tried} tried takes it and passes the gates before it`,
        ]),
    ),
    dead: new Map(
      gates.untaken
        .filter(isAlternative)
        .map((id) => [
          id,
          `no valid input of ${gates.tried} tried selects it and passes the gates before it; does an alternative before it take every input it would?`,
        ]),
    ),
  });
  const freshTrace = (value: TraceCase): Promise<Trace> => {
    traces += 1;
    return runTrace(compiled, value.inputs, value.plan, `seed-${value.seed}`, runOptions);
  };
  const traceOf = (value: TraceCase): Promise<Trace> => {
    const key = JSON.stringify(value);
    let trace = cache.get(key);
    if (!trace) {
      trace = freshTrace(value).then((fresh) => {
        coverage.add(fresh.records);
        return fresh;
      });
      cache.set(key, trace);
      if (cache.size > capacity) cache.delete(cache.keys().next().value!);
    }
    return trace;
  };
  const boundaries = boundaryInputs(compiled, reads);
  const cases: fc.Arbitrary<TraceCase> = fc.record({
    inputs: inputsArbitrary(compiled, boundaries),
    plan: signalPlanArbitrary({
      ...(options.maxActions === undefined ? {} : { maxActions: options.maxActions }),
      dataChanges: answerDataChanges(reads),
    }),
    seed: fc.nat(),
  });
  // The search's traces are judged as they run by the selected properties that need no
  // evidence keys: the first one failing ends the search, and its case is the first example
  // every trace property runs, so a broken scenario fails without waiting for a whole search.
  const early = properties.filter(
    (name) =>
      name !== 'evidence' &&
      TRACE_CHECKS[name] !== undefined &&
      (name !== 'money-conservation' || legs.length > 0),
  );
  const failsEarly = (trace: Trace): boolean =>
    early.some((name) => TRACE_CHECKS[name]!(compiled, trace, jwks).length > 0);
  // Found once, on the first trace property; the same scenario always gives the same cases.
  let directed: Promise<[TraceCase][]> | undefined;
  const directedCases = (): Promise<[TraceCase][]> =>
    (directed ??=
      options.directed === false
        ? Promise.resolve([])
        : exploreEdges(compiled, {
            trace: { drainRounds: terminationBound(compiled) },
            stopAt: failsEarly,
          }).then((found) =>
            found
              .slice(0, MAX_DIRECTED_CASES)
              .map(({ inputs, plan, seed }): [TraceCase] => [{ inputs, plan, seed }]),
          ));
  let engine: Engine | undefined;
  const createRun = (inputs: unknown) =>
    (engine ??= createEngine({
      store: createMemoryStore(),
      scenarios: [compiled],
      testClock: createVirtualClock('2026-06-01T08:00:00.000Z'),
      ids: seededIds('inputs'),
    })).createRun(INPUTS_SCOPE, { scenario_id: compiled.id, inputs });

  const total = numRuns * properties.length;
  let done = 0;
  const progress = (count: number): void => {
    if (count <= 0) return;
    done += count;
    options.onProgress?.(done, total);
  };

  const traceSpec = (name: PropertyName): PropertySpec<TraceCase> => ({
    arbitrary: cases,
    examples: directedCases,
    violations: async (value) => TRACE_CHECKS[name]!(compiled, await traceOf(value), jwks),
    explain: async (value) => formatTimeline(await traceOf(value)),
  });

  const inputsValid: PropertySpec<Readonly<Record<string, unknown>>> = {
    arbitrary: inputsArbitrary(compiled, boundaries),
    violations: async (inputs) => {
      const violations = compiled.inputs
        .validate(inputs)
        .map((issue) => `the validator refuses ${issue.pointer}: ${issue.message}`);
      try {
        await createRun(inputs);
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        violations.push(`the engine refuses with ${error.code}: ${error.message}`);
      }
      return violations;
    },
    explain: (inputs) => Promise.resolve(`inputs ${JSON.stringify(inputs)}`),
  };

  const nearMissRefused = (): PropertySpec<NearMissInputs> => ({
    arbitrary: invalidInputsArbitrary(compiled),
    violations: async ({ inputs, pointer, breaks }) => {
      const violations: string[] = [];
      const issues = compiled.inputs.validate(inputs);
      if (!issues.some((issue) => issue.pointer === pointer)) {
        violations.push(
          issues.length === 0
            ? `the validator accepts ${breaks} at ${pointer}`
            : `the validator refuses ${issues.map((issue) => issue.pointer).join(', ')} but not ${pointer} (${breaks})`,
        );
      }
      try {
        await createRun(inputs);
        violations.push(`the engine created a run with ${breaks} at ${pointer}`);
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        if (error.code !== 'invalid_inputs')
          violations.push(`the engine refused with ${error.code} instead of invalid_inputs`);
        else if (!error.issues.some((issue) => issue.pointer === `/inputs${pointer}`))
          violations.push(`the engine's invalid_inputs names no issue at /inputs${pointer}`);
      }
      return violations;
    },
    explain: ({ inputs, pointer, breaks }) =>
      Promise.resolve(
        [
          `near miss: ${breaks} at ${pointer}`,
          `inputs ${JSON.stringify(inputs)}`,
          `validator: ${JSON.stringify(compiled.inputs.validate(inputs))}`,
        ].join('\n'),
      ),
  });

  const determinism: PropertySpec<TraceCase> = {
    arbitrary: cases,
    examples: directedCases,
    // A run that does not end is termination's failure: running it to the drain bound a
    // second time would only repeat that (and cost most of a failing check's time).
    violations: async (value) => {
      const first = await traceOf(value);
      return first.terminated ? determinismViolations(first, await freshTrace(value)) : [];
    },
    explain: async (value) => formatTimeline(await traceOf(value)),
  };

  const skip = (name: PropertyName, reason: string): PropertyResult => {
    progress(numRuns);
    return {
      name,
      description: PROPERTY_DESCRIPTIONS[name],
      passed: true,
      runs: 0,
      skipped: reason,
    };
  };

  async function run<T>(name: PropertyName, spec: PropertySpec<T>): Promise<PropertyResult> {
    let ticks = 0;
    const property = fc.asyncProperty(spec.arbitrary, async (value) => {
      if (ticks < numRuns) {
        ticks += 1;
        progress(1);
      }
      const violations = await spec.violations(value);
      if (violations.length > 0) throw new Violation(violations);
    });
    const examples = (await spec.examples?.()) ?? [];
    let details: fc.RunDetails<[T]>;
    try {
      details = await fc.check(property, {
        numRuns,
        seed,
        examples,
        ...(options.path === undefined ? {} : { path: options.path }),
      });
    } catch (error) {
      // A replay path names a case of one property; the others cannot walk it.
      if (options.path === undefined || !String(error).includes('Unable to replay')) throw error;
      return skip(name, `path ${options.path} replays another property`);
    }
    progress(numRuns - ticks);
    const description = PROPERTY_DESCRIPTIONS[name];
    if (!details.failed) return { name, description, passed: true, runs: details.numRuns };
    const error = details.errorInstance;
    const message =
      error instanceof Violation
        ? error.message
        : error instanceof Error
          ? `${error.name}: ${error.message}`
          : details.interrupted
            ? 'fast-check was interrupted'
            : `fast-check gave up after ${details.numSkips} skipped cases`;
    const path = details.counterexamplePath ?? '';
    const counterexample = details.counterexample?.[0] ?? null;
    const timeline =
      counterexample === null
        ? ''
        : await spec
            .explain(counterexample)
            .catch(
              (cause: unknown) =>
                `the case could not be replayed: ${cause instanceof Error ? cause.message : String(cause)}\ncase ${JSON.stringify(counterexample)}`,
            );
    return {
      name,
      description,
      passed: false,
      runs: details.numRuns,
      failure: {
        seed: details.seed,
        path,
        counterexample,
        timeline,
        message,
        replay: replayLines(details.seed, path, name, options.file),
      },
    };
  }

  return {
    scenario: compiled.id,
    numRuns,
    seed,
    properties,
    traces: () => traces,
    coverage: () => coverage.report(),
    check(name) {
      switch (name) {
        case 'inputs-valid':
          return run(name, inputsValid);
        case 'near-miss-refused': {
          let spec: PropertySpec<NearMissInputs>;
          try {
            spec = nearMissRefused();
          } catch (error) {
            if (error instanceof CheckError && error.code === 'no_near_misses')
              return Promise.resolve(skip(name, error.message));
            throw error;
          }
          return run(name, spec);
        }
        case 'determinism':
          return run(name, determinism);
        case 'money-conservation':
          if (legs.length === 0)
            return Promise.resolve(skip(name, 'the scenario declares no money legs'));
          return run(name, traceSpec(name));
        default:
          return run(name, traceSpec(name));
      }
    },
  };
}
