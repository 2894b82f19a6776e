import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkUpgrade, formatProblem, type UpgradeFile, type UpgradeReport } from '@programrun/dsl';
import { CommandFailure } from '../command.js';
import { parseOptions, stringOption, type OptionValues } from '../parse-options.js';
import { UsageError } from '../usage-error.js';
import { formatOption } from './validate.js';
import { EXIT, type Output } from './verify.js';

/** `programrun upgrade` usage. */
export const UPGRADE_USAGE = `usage:
  programrun upgrade check <from> <to> [--migration <file>] [--scenarios <dir>] [--format text|json]
  programrun upgrade apply <from> <to> --account <id> --actor <name> [--env test|live]
      [--migration <file>] [--scenarios <dir>] [--dry-run] [--status <status>] [--stage <stage>] [--format text|json]
  programrun upgrade status <scenario> --account <id> [--env test|live] [--format text|json]`;

const SCENARIO_ID = /^[a-z][a-z0-9-]{0,62}@v[1-9][0-9]*$/;

/** A scenario named by file or by id (`bank-payout@v1`, found in `directory`). */
function scenarioFile(named: string, directory: string): string {
  return SCENARIO_ID.test(named) ? join(directory, `${named}.yaml`) : named;
}

/** A file's text with its name, an unreadable file being a usage problem. */
async function readNamed(file: string): Promise<UpgradeFile> {
  try {
    return { text: await readFile(file, 'utf8'), file };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(error)}`,
    );
  }
}

/** `<to's directory>/<name>@<from>-to-<to>.yaml`, when both files are named by id and it exists. */
async function besideMigration(fromFile: string, toFile: string): Promise<string | undefined> {
  const from = /^(.+)@(v[0-9]+)\.yaml$/.exec(basename(fromFile));
  const to = /^(.+)@(v[0-9]+)\.yaml$/.exec(basename(toFile));
  if (!from || !to || from[1] !== to[1]) return undefined;
  const file = join(dirname(toFile), `${to[1]}@${from[2]}-to-${to[2]}.yaml`);
  return (await stat(file).catch(() => undefined))?.isFile() ? file : undefined;
}

/** The files an upgrade is between, read, and the proof of it. */
export interface UpgradeProof {
  readonly report: UpgradeReport;
  readonly from: UpgradeFile;
  readonly to: UpgradeFile;
  readonly fromFile: string;
  readonly toFile: string;
  readonly migrationFile: string | undefined;
}

/**
 * `checkUpgrade` of `<from>` and `<to>` (files, or ids found in `--scenarios`, default
 * `scenarios`) with the migration of `--migration`, else the one beside `<to>`.
 */
export async function upgradeProof(
  fromName: string,
  toName: string,
  values: OptionValues,
): Promise<UpgradeProof> {
  const directory = stringOption(values, 'scenarios') ?? 'scenarios';
  const fromFile = scenarioFile(fromName, directory);
  const toFile = scenarioFile(toName, directory);
  const migrationFile =
    stringOption(values, 'migration') ?? (await besideMigration(fromFile, toFile));
  const from = await readNamed(fromFile);
  const to = await readNamed(toFile);
  const report = checkUpgrade(
    from,
    to,
    migrationFile === undefined ? undefined : await readNamed(migrationFile),
  );
  return { report, from, to, fromFile, toFile, migrationFile };
}

/**
 * `programrun upgrade check <from> <to>`: proves that the runs of `from` can move to `to`
 * (`checkUpgrade`), each a scenario file or an id found in `--scenarios` (default
 * `scenarios`), with the migration of `--migration`, else `<name>@<from>-to-<to>.yaml`
 * beside `to` when there is one. Prints where the runs waiting at each step go, and each
 * problem as `file:line:column: code message`. Exit 0 safe, 1 unsafe, 2 usage.
 *
 * @example
 * ```ts
 * await upgradeCommand(['check', 'bank-payout@v1', 'bank-payout@v2'], output);
 * ```
 */
export async function upgradeCommand(argv: readonly string[], output: Output): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    migration: { type: 'string' },
    scenarios: { type: 'string' },
    format: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    output.out(UPGRADE_USAGE);
    return EXIT.ok;
  }
  const [action, fromName, toName, ...extra] = positionals;
  if (action !== 'check' || fromName === undefined || toName === undefined || extra.length > 0)
    throw new UsageError(UPGRADE_USAGE);
  const format = formatOption(values.format, ['text', 'json']);
  const { report, migrationFile, fromFile, toFile } = await upgradeProof(fromName, toName, values);
  if (format === 'json') {
    output.out(JSON.stringify({ ...report, migration: migrationFile ?? null }, null, 2));
  } else {
    const moving = `${report.from ?? fromFile} → ${report.to ?? toFile}`;
    output.out(
      `${moving}${migrationFile === undefined ? ' (no migration: steps map by id)' : ` (migration ${migrationFile})`}`,
    );
    const width = Math.max(0, ...report.states.map(({ state }) => state.length));
    for (const { state, mapsTo, stays, deadline, problems } of report.states) {
      const where = stays ? `stays on ${report.from}` : `→ ${mapsTo}`;
      const moved = deadline ? `  (deadline ${deadline.from} → ${deadline.to})` : '';
      output.out(
        `  ${state.padEnd(width)}  ${where}${moved}${problems.length > 0 ? '  UNSAFE' : ''}`,
      );
    }
    for (const [field, expression] of Object.entries(report.inputs))
      output.out(`  moved runs get input ${field} = ${expression}`);
    for (const problem of report.problems) output.out(formatProblem(problem));
  }
  if (!report.ok) {
    const states = report.states.filter(({ problems }) => problems.length > 0).length;
    throw new CommandFailure(
      report.states.length === 0
        ? `${report.problems.length} problem(s) before any state could be checked`
        : `unsafe: ${report.problems.length} problem(s) in ${states} of ${report.states.length} waiting states`,
    );
  }
  return EXIT.ok;
}
