import { compile, type CompiledScenario } from '@programrun/dsl';
import type {
  CheckReport,
  CoverageReport,
  PropertyName,
  PropertyResult,
} from '@programrun/testing';
import { CommandFailure } from '../command.js';
import { scenarioProgress, type ProgressMode, type ProgressStream } from '../check/progress.js';
import { integerOption, listOption, parseOptions, stringOption } from '../parse-options.js';
import { loadFile, scenarioFiles } from '../scenarios/scenario-files.js';
import { UsageError } from '../usage-error.js';
import { diagnosticOf, formatDiagnostic, formatOption, sortDiagnostics } from './validate.js';
import { EXIT, type Output } from './verify.js';

const USAGE =
  'usage: programrun check [<file|dir>…] [--runs N] [--seed N] [--path P] [--property <name>]… [--coverage] [--min-coverage PERCENT|reachable] [--quiet] [--format text|json]';

/** One checked scenario: its file, report and how long each property took. */
interface Checked {
  readonly file: string;
  readonly report: CheckReport;
  readonly durations: readonly number[];
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs every selected property of one scenario (`checkScenario`), timing each. */
async function checkOne(
  file: string,
  compiled: CompiledScenario,
  options: {
    numRuns: number | undefined;
    seed: number | undefined;
    path: string | undefined;
    properties: readonly PropertyName[] | undefined;
    onProgress: (done: number, total: number) => void;
  },
): Promise<Checked> {
  const { checkScenario } = await import('@programrun/testing');
  const durations: number[] = [];
  const report = await checkScenario(compiled, {
    file,
    onProgress: options.onProgress,
    onProperty: (_result, durationMs) => durations.push(durationMs),
    ...(options.numRuns === undefined ? {} : { numRuns: options.numRuns }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.path === undefined ? {} : { path: options.path }),
    ...(options.properties === undefined ? {} : { properties: options.properties }),
  });
  return { file, durations, report };
}

/** `--min-coverage`: a percentage from 0 to 100, or `reachable` (every reachable edge). */
function percentOption(text: string | undefined): number | 'reachable' | undefined {
  if (text === undefined || text === 'reachable') return text;
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 100))
    throw new UsageError(
      `--min-coverage must be a percentage from 0 to 100 or "reachable", not "${text}"`,
    );
  return value;
}

/** The scenarios whose traces took less than `percent` % of their edges, as `id covered/total`. */
function belowCoverage(checked: readonly Checked[], percent: number): string[] {
  return (
    checked
      .map(({ report }) => report)
      // No trace property selected: nothing measured coverage.
      .filter(({ traces }) => traces > 0)
      .filter(({ coverage }) => coverage.covered * 100 < percent * coverage.total)
      .map(({ scenario, coverage }) => `${scenario} ${coverage.covered}/${coverage.total}`)
  );
}

/** The summary table: scenario, property, runs, result, time. */
function table(checked: readonly Checked[]): string[] {
  const rows = [
    ['scenario', 'property', 'runs', 'result', 'time'],
    ...checked.flatMap(({ report, durations }) =>
      report.properties.map((property, index) => [
        report.scenario,
        property.name,
        property.skipped === undefined ? String(property.runs) : '-',
        property.skipped !== undefined ? 'skipped' : property.passed ? 'passed' : 'FAILED',
        seconds(durations[index] ?? 0),
      ]),
    ),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) =>
        column === 2 || column === 4
          ? cell.padStart(widths[column]!)
          : column === row.length - 1
            ? cell
            : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd(),
  );
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');

/** One failure: what broke, the replay command, and the shrunk case's timeline. */
function failureLines(file: string, report: CheckReport, property: PropertyResult): string[] {
  const failure = property.failure!;
  return [
    `✗ ${report.scenario} ${property.name} failed after ${plural(property.runs, 'run', 'runs')}: ${property.description}`,
    indent(failure.message),
    `  replay: programrun check ${file} --seed ${failure.seed} --path ${failure.path} --property ${property.name}`,
    ...(failure.timeline === '' ? [] : ['', indent(failure.timeline)]),
    '',
  ];
}

/**
 * `programrun check [scenarios…]`: runs the property suite of `@programrun/testing` on
 * each scenario (default: `scenarios/*.yaml`), with a progress bar on stderr, then prints
 * a table (scenario, property, runs, result, time) and, for each failure, what broke,
 * the shrunk case's timeline and the command that replays it, then each scenario's edge
 * coverage (`--coverage`: every edge with its hit count). Exits 1 on any failure, and when
 * a scenario's traces left an edge not known to be unreachable untaken (`--min-coverage
 * P`: took less than P % of its edges; not enforced with `--path`).
 *
 * @example
 * ```ts
 * await checkCommand(['scenarios/wallet-delivery@v1.yaml', '--runs', '50'], output, process.stderr);
 * ```
 */
export async function checkCommand(
  argv: readonly string[],
  output: Output,
  progressStream: ProgressStream,
): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    runs: { type: 'string' },
    seed: { type: 'string' },
    path: { type: 'string' },
    property: { type: 'string', multiple: true },
    quiet: { type: 'boolean' },
    coverage: { type: 'boolean' },
    'min-coverage': { type: 'string' },
    format: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    output.out(USAGE);
    return EXIT.ok;
  }
  const format = formatOption(values.format, ['text', 'json']);
  const numRuns = integerOption(values, 'runs', { min: 1, max: 1_000_000 });
  const seedText = stringOption(values, 'seed');
  if (seedText !== undefined && !/^-?\d+$/.test(seedText))
    throw new UsageError(`--seed must be an integer, not "${seedText}"`);
  const seed = seedText === undefined ? undefined : Number(seedText);
  if (seed !== undefined && (seed < -(2 ** 31) || seed > 2 ** 32 - 1))
    throw new UsageError(`--seed must be a 32-bit integer, not "${seedText}"`);
  const path = stringOption(values, 'path');
  // Replaying one case takes one path, so only a check of many runs is held to coverage.
  const minCoverage =
    percentOption(stringOption(values, 'min-coverage')) ??
    (path === undefined ? 'reachable' : undefined);
  if (path !== undefined && !/^\d+(:\d+)*$/.test(path))
    throw new UsageError(`--path must be a fast-check path such as 4:0:1, not "${path}"`);
  if (path !== undefined && seed === undefined)
    throw new UsageError('--path replays a case only together with its --seed');
  const files = await scenarioFiles(positionals.length > 0 ? positionals : ['scenarios']);
  if (path !== undefined && files.length !== 1)
    throw new UsageError('--path replays a case of one scenario: name one file');
  // The property tester loads once the options are known to be usable.
  const { PROPERTY_NAMES } = await import('@programrun/testing');
  const named = listOption(values, 'property');
  for (const name of named)
    if (!(PROPERTY_NAMES as readonly string[]).includes(name))
      throw new UsageError(`--property ${name}: not a property (${PROPERTY_NAMES.join(', ')})`);
  const properties = named.length > 0 ? (named as PropertyName[]) : undefined;

  const loaded = await Promise.all(
    files.map(async (file) => ({ file, result: await loadFile(file) })),
  );
  const problems = sortDiagnostics(
    loaded.flatMap(({ file, result }) =>
      result.problems.map((problem) => diagnosticOf(problem, file)),
    ),
  );
  if (problems.length > 0) {
    if (format === 'json') output.out(JSON.stringify(problems, null, 2));
    else for (const problem of problems) output.out(formatDiagnostic(problem));
    const failing = loaded.filter(({ result }) => !result.ok).length;
    throw new CommandFailure(
      `${plural(failing, 'scenario does', 'scenarios do')} not load (${plural(problems.length, 'error', 'errors')}); nothing was checked`,
    );
  }

  const mode: ProgressMode =
    values.quiet === true ? 'none' : progressStream.isTTY === true ? 'bar' : 'lines';
  const checked: Checked[] = [];
  for (const [index, { file, result }] of loaded.entries()) {
    const compiled = compile(result.scenario!);
    const label = files.length > 1 ? `[${index + 1}/${files.length}] ${compiled.id}` : compiled.id;
    const progress = scenarioProgress(progressStream, mode, label);
    try {
      checked.push(
        await checkOne(file, compiled, {
          numRuns,
          seed,
          path,
          properties,
          onProgress: (done, total) => progress.update(done, total),
        }),
      );
    } finally {
      progress.finish();
    }
  }

  const failures = checked.flatMap(({ file, report }) =>
    report.properties
      .filter((property) => !property.passed)
      .map((property) => ({ file, report, property })),
  );
  if (format === 'json') {
    output.out(
      JSON.stringify(
        checked.map(({ file, report }) => ({ file, ...report })),
        null,
        2,
      ),
    );
  } else {
    for (const line of table(checked)) output.out(line);
    output.out('');
    const propertiesRun = checked.reduce((sum, entry) => sum + entry.report.properties.length, 0);
    const traces = checked.reduce((sum, entry) => sum + entry.report.traces, 0);
    const total = checked.reduce((sum, entry) => sum + entry.report.durationMs, 0);
    output.out(
      `${plural(checked.length, 'scenario', 'scenarios')}, ${plural(propertiesRun, 'property', 'properties')}: ${failures.length === 0 ? 'all passed' : `${failures.length} failed`} (${plural(traces, 'trace', 'traces')} in ${seconds(total)})`,
    );
    output.out(
      `seed ${checked.map(({ report }) => (checked.length > 1 ? `${report.scenario} ${report.seed}` : String(report.seed))).join(', ')}; ${plural(checked[0]?.report.numRuns ?? 0, 'run', 'runs')} per property`,
    );
    const { formatCoverage } = await import('@programrun/testing');
    for (const { report } of checked) {
      if (report.traces === 0) continue;
      output.out('');
      if (checked.length > 1 || values.coverage === true) output.out(report.scenario);
      output.out(formatCoverage(report.coverage, { all: values.coverage === true }));
    }
    if (failures.length > 0) output.out('');
    for (const { file, report, property } of failures)
      for (const line of failureLines(file, report, property)) output.out(line);
  }
  if (failures.length > 0) {
    const names = failures.map(({ report, property }) => `${report.scenario} ${property.name}`);
    throw new CommandFailure(
      `${plural(failures.length, 'property', 'properties')} failed: ${names.join(', ')}`,
    );
  }
  if (minCoverage === 'reachable') {
    const listed = (pick: (coverage: CoverageReport) => readonly string[]) =>
      checked
        .filter(({ report }) => report.traces > 0 && pick(report.coverage).length > 0)
        .map(({ report }) => `${report.scenario} ${pick(report.coverage).join(', ')}`);
    const dead = listed((coverage) => coverage.dead);
    const missed = listed((coverage) => coverage.missed);
    const reasons = [
      ...(dead.length > 0 ? [`route alternatives no valid input selects: ${dead.join('; ')}`] : []),
      ...(missed.length > 0
        ? [
            `reachable edges no trace took (raise --runs, or --min-coverage 0 to allow it): ${missed.join('; ')}`,
          ]
        : []),
    ];
    if (reasons.length > 0) throw new CommandFailure(reasons.join('; and '));
    return EXIT.ok;
  }
  const short = minCoverage === undefined ? [] : belowCoverage(checked, minCoverage);
  if (short.length > 0)
    throw new CommandFailure(`edge coverage under ${minCoverage} %: ${short.join(', ')}`);
  return EXIT.ok;
}
