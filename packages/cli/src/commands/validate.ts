import { formatProblem, type Problem } from '@programrun/dsl';
import { parseOptions } from '../parse-options.js';
import { loadFile, scenarioFiles } from '../scenarios/scenario-files.js';
import { CommandFailure } from '../command.js';
import { UsageError } from '../usage-error.js';
import { EXIT, type Output } from './verify.js';

/** One problem as `validate --format json` prints it. */
export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: string;
  readonly message: string;
  /** Every scenario problem is an error today; the field lets tools tell warnings apart later. */
  readonly severity: 'error' | 'warning';
}

/** The output format a command was asked for with `--format`. */
export function formatOption(value: unknown, formats: readonly string[]): string {
  if (value === undefined) return formats[0]!;
  if (typeof value !== 'string' || !formats.includes(value))
    throw new UsageError(
      `--format must be ${formats.join(' or ')}, not "${typeof value === 'string' ? value : JSON.stringify(value)}"`,
    );
  return value;
}

/** A problem as a diagnostic of `file`. */
export function diagnosticOf(problem: Problem, file: string): Diagnostic {
  return {
    file: problem.file ?? file,
    line: problem.line,
    column: problem.column,
    code: problem.code,
    message: problem.message,
    severity: 'error',
  };
}

/** Diagnostics in reading order: by file, then line, column and code. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...diagnostics].sort(
    (a, b) =>
      compare(a.file, b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      compare(a.code, b.code) ||
      compare(a.message, b.message),
  );
}

/** `file:line:column: code message`, the line compilers and editors use. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  return formatProblem({ ...diagnostic, code: diagnostic.code as Problem['code'], path: [] });
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const USAGE = 'usage: programrun validate [<file.yaml|directory>…] [--format text|json]';

/**
 * `programrun validate <files…>`: loads each scenario (directories stand for their
 * `*.yaml` files; default `scenarios`) and prints every problem as
 * `file:line:column: code message`, sorted, each fine file as `ok`, and a summary line.
 * `--format json` prints a JSON array of diagnostics instead. Exits 1 on any problem.
 *
 * @example
 * ```ts
 * process.exitCode = await runCommand('validate', output, () => validateCommand(['scenarios'], output));
 * ```
 */
export async function validateCommand(argv: readonly string[], output: Output): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    format: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    output.out(USAGE);
    return EXIT.ok;
  }
  const format = formatOption(values.format, ['text', 'json']);
  const files = await scenarioFiles(positionals.length > 0 ? positionals : ['scenarios']);
  const byName = (a: { file: string }, b: { file: string }) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
  const results = (
    await Promise.all(
      files.map(async (file) => {
        const result = await loadFile(file);
        const problems = result.problems.map((problem) => diagnosticOf(problem, file));
        return { file, result, diagnostics: sortDiagnostics(problems) };
      }),
    )
  ).sort(byName);
  const diagnostics = results.flatMap((entry) => entry.diagnostics);
  const failing = results.filter(({ result }) => !result.ok).length;

  if (format === 'json') {
    output.out(JSON.stringify(diagnostics, null, 2));
  } else {
    for (const { file, result, diagnostics: problems } of results) {
      if (result.ok) output.out(`${file}: ok ${result.scenario.id} ${result.scenario.digest}`);
      for (const diagnostic of problems) output.out(formatDiagnostic(diagnostic));
    }
    output.out(
      failing === 0
        ? `${plural(files.length, 'file')}: all ok`
        : `${plural(files.length, 'file')}: ${files.length - failing} ok, ${failing} with problems (${plural(diagnostics.length, 'error')})`,
    );
  }
  if (failing > 0) {
    throw new CommandFailure(
      `${plural(diagnostics.length, 'error')} in ${failing} of ${plural(files.length, 'file')}`,
    );
  }
  return EXIT.ok;
}
