import { fileURLToPath } from 'node:url';
import type { CompiledScenario } from '@programrun/dsl';
import { CheckError } from './check-error.js';
import type { CheckOptions } from './check-options.js';
import { formatCoverage, formatPropertyFailure } from './format-check-report.js';
import { loadCompiledScenario } from './load-compiled.js';
import { createScenarioChecker } from './scenario-checker.js';

/** Options of {@link scenarioSuite}: those of `checkScenario`, and a timeout per property. */
export interface ScenarioSuiteOptions extends Omit<CheckOptions, 'onProgress'> {
  /** Milliseconds each property's test may take. @default 120000 */
  readonly timeout?: number;
  /**
   * `reachable`: a last test, `covers every reachable edge`, fails when an edge not known
   * to be unreachable was taken by no trace; `false`: no such test. @default 'reachable'
   */
  readonly coverage?: 'reachable' | false;
}

/** The part of vitest the suite uses (vitest is an optional peer dependency). */
interface Vitest {
  describe(name: string, body: () => void): void;
  it(
    name: string,
    body: (context: { skip(note?: string): never }) => Promise<void>,
    timeout?: number,
  ): void;
}

const isCompiled = (value: unknown): value is CompiledScenario =>
  typeof value === 'object' && value !== null && 'machine' in value && 'graph' in value;

/**
 * Registers a vitest `describe` block named after the scenario, with one test per
 * property of `checkScenario` (`inputs-valid`, `determinism`, `termination`, …). A failing
 * test shows what broke, the replay seed and path, and the shrunk counterexample's
 * timeline; a property that does not apply (no legs) is reported skipped. A last test,
 * `covers every reachable edge`, fails when an edge not known to be unreachable was taken
 * by no trace, and lists the edges not taken (`coverage: false` leaves it out). Pass a
 * scenario file (path or `file:` URL) or a compiled scenario; await it at the top level
 * of a test file, one line per scenario. vitest is imported only when this runs.
 *
 * @example
 * ```ts
 * // scenarios.test.ts
 * import { scenarioSuite } from '@programrun/testing';
 *
 * await scenarioSuite(new URL('../scenarios/wallet-delivery@v1.yaml', import.meta.url));
 * await scenarioSuite(new URL('../scenarios/bank-payout@v1.yaml', import.meta.url), { numRuns: 300 });
 * await scenarioSuite(new URL('../scenarios/treasury-conversion@v1.yaml', import.meta.url), { numRuns: 20, coverage: false });
 * ```
 */
export async function scenarioSuite(
  scenario: string | URL | CompiledScenario,
  options: ScenarioSuiteOptions = {},
): Promise<void> {
  let vitest: Vitest;
  try {
    vitest = await import('vitest');
  } catch (cause) {
    throw new CheckError(
      'vitest_unavailable',
      'scenarioSuite registers vitest tests: install vitest and call it from a test file (or use checkScenario).',
      { cause },
    );
  }
  const compiled = isCompiled(scenario) ? scenario : await loadCompiledScenario(scenario);
  const file =
    options.file ??
    (typeof scenario === 'string'
      ? scenario
      : scenario instanceof URL
        ? fileURLToPath(scenario)
        : undefined);
  const { timeout = 120_000, coverage = 'reachable', ...checkOptions } = options;
  const checker = createScenarioChecker(compiled, {
    ...checkOptions,
    ...(file === undefined ? {} : { file }),
  });
  vitest.describe(compiled.id, () => {
    for (const name of checker.properties) {
      vitest.it(
        name,
        async (context) => {
          const result = await checker.check(name);
          if (result.skipped !== undefined) context.skip(result.skipped);
          if (!result.passed) {
            const error = new Error(formatPropertyFailure(result));
            error.stack = error.message;
            throw error;
          }
        },
        timeout,
      );
    }
    // After the properties, whose traces it counts: every edge a run can take was taken.
    if (coverage !== 'reachable') return;
    vitest.it(
      'covers every reachable edge',
      async (context) => {
        await Promise.resolve();
        const report = checker.coverage();
        if (checker.traces() === 0) context.skip('no trace property was checked');
        if (report.dead.length > 0) {
          const error = new Error(
            `${report.dead.length} route alternative(s) no valid input selects (an alternative before each takes every input it would?):\n${formatCoverage(report)}`,
          );
          error.stack = error.message;
          throw error;
        }
        if (report.missed.length > 0) {
          const error = new Error(
            `${report.missed.length} reachable edge(s) no trace took (raise numRuns, or make them reachable):\n${formatCoverage(report)}`,
          );
          error.stack = error.message;
          throw error;
        }
      },
      timeout,
    );
  });
}
