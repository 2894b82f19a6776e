import type { PropertyName } from './check-options.js';
import type { CoverageReport } from './edge-coverage.js';

/** How a property failed: the shrunk case, where it is, and what went wrong. */
export interface PropertyFailure {
  /** fast-check seed of the run that failed. */
  readonly seed: number;
  /** fast-check path of the shrunk counterexample; with `seed` it replays exactly this case. */
  readonly path: string;
  /** The shrunk case: `{ inputs, plan, seed }` for traces, near-miss or plain inputs otherwise. */
  readonly counterexample: unknown;
  /** The shrunk case as a readable timeline (see `formatTimeline`). */
  readonly timeline: string;
  /** What broke, one line per violation. */
  readonly message: string;
  /** How to replay it: the `checkScenario` call and the `programrun check` command. */
  readonly replay: string;
}

/** The result of one property. */
export interface PropertyResult {
  readonly name: PropertyName;
  /** What the property promises, in a sentence. */
  readonly description: string;
  readonly passed: boolean;
  /** Cases tried (up to and including the first failure). */
  readonly runs: number;
  /** Why the property did not apply (e.g. the scenario declares no legs); it counts as passed. */
  readonly skipped?: string;
  readonly failure?: PropertyFailure;
}

/** What `checkScenario` found. */
export interface CheckReport {
  /** The scenario id, e.g. `wallet-delivery@v1`. */
  readonly scenario: string;
  /** Cases per property. */
  readonly numRuns: number;
  /** fast-check seed every property ran with. */
  readonly seed: number;
  /** Traces run through the engine (each once, however many properties read it). */
  readonly traces: number;
  /** The scenario's edges (ways out of steps, rule outcomes, retries, compensations) and how many traces took each. */
  readonly coverage: CoverageReport;
  readonly durationMs: number;
  readonly properties: readonly PropertyResult[];
  /** True when every property passed (or was skipped). */
  readonly passed: boolean;
}

/**
 * The replay lines of a failure: the `checkScenario` call and the CLI command, both
 * narrowed to the failed property (a path names a case of that property only).
 *
 * @example
 * ```ts
 * replayLines(1234, '7:0:2', 'termination', 'scenarios/wallet-delivery@v1.yaml');
 * // replay: checkScenario(compiled, { seed: 1234, path: "7:0:2", properties: ["termination"] })
 * //         programrun check scenarios/wallet-delivery@v1.yaml --seed 1234 --path 7:0:2 --property termination
 * ```
 */
export function replayLines(
  seed: number,
  path: string,
  property: PropertyName,
  file = '<file>',
): string {
  return [
    `replay: checkScenario(compiled, { seed: ${seed}, path: ${JSON.stringify(path)}, properties: [${JSON.stringify(property)}] })`,
    `        programrun check ${file} --seed ${seed} --path ${path} --property ${property}`,
  ].join('\n');
}
