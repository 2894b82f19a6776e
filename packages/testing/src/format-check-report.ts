import type { CheckReport, PropertyResult } from './check-report.js';
import type { CoverageReport, EdgeHits } from './edge-coverage.js';

const indent = (text: string): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');

/**
 * One failed property in words: what broke, the replay lines, and the shrunk
 * counterexample's timeline. Empty for a property that passed.
 *
 * @example
 * ```ts
 * console.error(formatPropertyFailure(report.properties.find((property) => !property.passed)!));
 * ```
 */
export function formatPropertyFailure(result: PropertyResult): string {
  const failure = result.failure;
  if (!failure) return '';
  return [
    `${result.name} FAILED after ${result.runs} run${result.runs === 1 ? '' : 's'}: ${result.description}`,
    indent(failure.message),
    failure.replay,
    ...(failure.timeline === '' ? [] : ['', failure.timeline]),
  ].join('\n');
}

/**
 * Edge coverage as text: `edges covered 31/47`, then the edges no trace took (`all`: every
 * edge, with how many traces took it).
 *
 * @example
 * ```ts
 * console.log(formatCoverage(report.coverage));
 * // edges covered 46/47; not taken:
 * //   lock_fx_quote: timeout → refund_payer
 * ```
 */
export function formatCoverage(coverage: CoverageReport, options: { all?: boolean } = {}): string {
  const { covered, total, reachable, missed, dead } = coverage;
  const every =
    missed.length === 0 && dead.length === 0 && reachable < total ? ', every reachable edge' : '';
  const why = ({ unreachable, dead: never }: EdgeHits): string =>
    unreachable !== undefined
      ? ` (unreachable: ${unreachable})`
      : never !== undefined
        ? ` (never selected: ${never})`
        : '';
  const head = `edges covered ${covered}/${total}${every}`;
  if (options.all) {
    const width = Math.max(...coverage.edges.map(({ hits }) => String(hits).length), 4);
    return [
      head,
      `  ${'hits'.padStart(width)}  edge`,
      ...coverage.edges.map(
        (entry) => `  ${String(entry.hits).padStart(width)}  ${entry.edge.label}${why(entry)}`,
      ),
    ].join('\n');
  }
  const notTaken = coverage.edges.filter(({ hits }) => hits === 0);
  if (notTaken.length === 0) return head;
  return [
    `${head}; not taken:`,
    ...notTaken.map((entry) => `  ${entry.edge.label}${why(entry)}`),
  ].join('\n');
}

/**
 * A check report as text: a header (scenario, seed, runs, traces, time), a table with
 * one row per property (runs and result), then each failure with its replay lines and
 * the shrunk counterexample's timeline.
 *
 * @example
 * ```ts
 * const report = await checkScenario(compiled);
 * console.log(formatCheckReport(report));
 * // checkScenario wallet-delivery@v1 · seed 1843 · 100 runs per property · 200 traces in 2.1 s
 * //   property               runs  result
 * //   inputs-valid            100  passed
 * ```
 */
export function formatCheckReport(report: CheckReport): string {
  const rows = report.properties.map((property) => [
    property.name,
    property.skipped === undefined ? String(property.runs) : '-',
    property.skipped !== undefined
      ? `skipped (${property.skipped})`
      : property.passed
        ? 'passed'
        : 'FAILED',
  ]);
  const nameWidth = Math.max('property'.length, ...rows.map((row) => row[0]!.length));
  const runsWidth = Math.max('runs'.length, ...rows.map((row) => row[1]!.length));
  const line = (cells: readonly string[]) =>
    `  ${cells[0]!.padEnd(nameWidth)}  ${cells[1]!.padStart(runsWidth)}  ${cells[2]}`;
  const failed = report.properties.filter((property) => !property.passed);
  return [
    `checkScenario ${report.scenario} · seed ${report.seed} · ${report.numRuns} runs per property · ${report.traces} traces in ${(report.durationMs / 1000).toFixed(1)} s`,
    line(['property', 'runs', 'result']),
    ...rows.map(line),
    ...(report.traces === 0 ? [] : [formatCoverage(report.coverage)]),
    failed.length === 0
      ? 'every property holds'
      : `${failed.length} propert${failed.length === 1 ? 'y' : 'ies'} failed`,
    ...failed.flatMap((property) => ['', formatPropertyFailure(property)]),
  ].join('\n');
}
