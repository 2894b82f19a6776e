import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadScenario, type LoadedScenario, type LoadResult } from '../load-scenario.js';
import type { Problem } from '../problem.js';
import { isMigrationFileName } from '../upgrade/migration-schema.js';

/**
 * Reads and loads one scenario file.
 *
 * @example
 * ```ts
 * const result = await loadScenarioFile('scenarios/bank-payout@v1.yaml');
 * ```
 */
export async function loadScenarioFile(file: string): Promise<LoadResult> {
  return loadScenario(await readFile(file, 'utf8'), { file });
}

/** Result of {@link loadScenarioDirectory}: the scenarios that loaded and every problem. */
export interface DirectoryLoadResult {
  readonly scenarios: readonly LoadedScenario[];
  readonly problems: readonly Problem[];
}

/**
 * Loads every `*.yaml` file of a directory (the catalogue) but migrations
 * (`<scenario>@v1-to-v2.yaml`), sorted by id. A directory with no
 * `*.yaml` file is a problem (`no_scenarios`), so a server never starts with an empty catalogue
 * by mistake.
 *
 * @example
 * ```ts
 * const { scenarios, problems } = await loadScenarioDirectory('scenarios');
 * ```
 */
export async function loadScenarioDirectory(directory: string): Promise<DirectoryLoadResult> {
  const files = (await readdir(directory))
    .filter((name) => name.endsWith('.yaml') && !isMigrationFileName(name))
    .sort();
  if (files.length === 0) {
    const message = 'the directory has no *.yaml scenario files';
    return {
      scenarios: [],
      problems: [{ code: 'no_scenarios', message, path: [], line: 0, column: 0, file: directory }],
    };
  }
  const results = await Promise.all(files.map((name) => loadScenarioFile(join(directory, name))));
  return {
    scenarios: results
      .flatMap((result) => (result.ok ? [result.scenario] : []))
      .sort((a, b) => a.id.localeCompare(b.id)),
    problems: results.flatMap((result) => result.problems),
  };
}
