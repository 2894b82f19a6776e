import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  compile,
  formatProblem,
  isMigrationFileName,
  ScenarioError,
  type CompiledScenario,
  type LoadedScenario,
  type LoadResult,
} from '@programrun/dsl';
import { loadCatalogue, loadScenarioFile } from '@programrun/dsl/node';
import { CommandFailure } from '../command.js';
import { UsageError } from '../usage-error.js';

/**
 * The scenario files named by `paths`: files as given, directories as their `*.yaml`
 * files (not recursive, sorted), in order and without duplicates. A path that does not
 * exist, or no file at all, is a usage error.
 */
export async function scenarioFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => {
      throw new UsageError(`cannot read ${path}: no such file or directory`);
    });
    if (info.isDirectory()) {
      const names = (await readdir(path))
        .filter((name) => name.endsWith('.yaml') && !isMigrationFileName(name))
        .sort();
      if (names.length === 0) throw new UsageError(`${path} has no *.yaml scenario files`);
      files.push(...names.map((name) => join(path, name)));
    } else {
      files.push(path);
    }
  }
  return [...new Set(files)];
}

/**
 * Loads one scenario file, with an unreadable file as a usage error.
 */
export async function loadFile(file: string): Promise<LoadResult> {
  try {
    return await loadScenarioFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'EISDIR'
        ? `${file} is a directory; name one scenario file`
        : code === 'ENOENT'
          ? `cannot read ${file}: no such file`
          : `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Loads and compiles the one scenario a command works on. A scenario with problems is a
 * failure (exit 1) naming the first problem and how many there are.
 */
export async function compileFile(file: string): Promise<CompiledScenario> {
  return compile(await loadValidFile(file));
}

/**
 * Loads the one scenario a command works on; a scenario with problems is a failure
 * (exit 1) naming the first problem and how many there are.
 */
export async function loadValidFile(file: string): Promise<LoadedScenario> {
  const result = await loadFile(file);
  if (!result.ok) {
    const count = result.problems.length;
    throw new CommandFailure(
      `${file} has ${count} problem${count === 1 ? '' : 's'} (run programrun validate ${file}); the first: ${formatProblem(result.problems[0]!)}`,
    );
  }
  return result.scenario;
}

const isFileSystemError = (error: unknown): boolean =>
  typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string' &&
  /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code!);

/**
 * The compiled catalogue of a scenarios directory (`loadCatalogue`), with the CLI's
 * errors: an unreadable or empty directory is a usage error (exit 2) naming `option`; a
 * scenario with problems is a failure (exit 1) naming the first and `programrun validate`.
 */
export async function catalogueOf(directory: string, option: string): Promise<CompiledScenario[]> {
  try {
    return await loadCatalogue(directory);
  } catch (error) {
    if (isFileSystemError(error))
      throw new UsageError(`cannot read the scenarios directory ${directory} (pass ${option})`);
    if (!(error instanceof ScenarioError)) throw error;
    const { problems } = error;
    if (problems.every((problem) => problem.code === 'no_scenarios'))
      throw new UsageError(`${directory} has no *.yaml scenarios (pass ${option})`);
    throw new CommandFailure(
      `${directory} has ${problems.length} scenario problem(s) (run programrun validate ${directory}); the first: ${formatProblem(problems[0]!)}`,
    );
  }
}
