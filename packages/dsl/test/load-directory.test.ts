import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProblem } from '../src/index.js';
import { loadScenarioDirectory } from '../src/node.js';

let directory = '';
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'programrun-empty-'));
  await writeFile(join(directory, 'notes.txt'), 'not a scenario');
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('loadScenarioDirectory', () => {
  it('reports a directory without scenario files as a problem, not an empty catalogue', async () => {
    const { scenarios, problems } = await loadScenarioDirectory(directory);
    expect(scenarios).toEqual([]);
    expect(problems.map(formatProblem)).toEqual([
      `${directory}: no_scenarios the directory has no *.yaml scenario files`,
    ]);
  });
});
