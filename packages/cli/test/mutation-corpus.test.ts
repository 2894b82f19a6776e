// The mutation corpus (packages/testing/test/mutations/): realistic author mistakes on rare
// paths of the catalogue and of the test-only merchant-refund@v1. `programrun check` at its
// defaults (random seed, 100 runs per property, every reachable edge) must catch every one
// within 10 s (by a load problem, a failing property, or a route alternative no input
// selects), and pass the scenarios they were made from. The 10 s are the CPU time of the
// command's main thread, where the check runs: CI runs two suites at once on two cores,
// where wall-clock time measures the host too (a check of 6–9 s on a quiet machine took
// 10.9 s there).
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseText, loadMutants } from '../../testing/test/mutations/mutants.js';
import { programrun } from './run-bin.js';

const mutants = loadMutants();
const PROPERTY_ROW = (scenario: string, property: string) =>
  new RegExp(`^${scenario} +${property} +\\d+ +FAILED `, 'm');
const BUDGET_MS = 10_000;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'programrun-mutants-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** Writes `text` as `<base>.yaml` in a directory of its own (the file name is the id). */
async function scenarioFile(name: string, base: string, text: string): Promise<string> {
  await mkdir(join(directory, name), { recursive: true });
  const file = join(directory, name, `${base}.yaml`);
  await writeFile(file, text);
  return file;
}

describe('the mutation corpus', () => {
  it('has at least 17 seeded bugs, each on a scenario that exists', () => {
    expect(mutants.length).toBeGreaterThanOrEqual(17);
    for (const mutant of mutants) expect(mutant.text).not.toBe(baseText(mutant.base));
  });

  it.each(mutants.map((mutant) => [mutant.name, mutant] as const))(
    'programrun check at its defaults catches %s within 10 s',
    async (name, mutant) => {
      const file = await scenarioFile(name, mutant.base, mutant.text);
      const started = performance.now();
      const result = await programrun(['check', file], { cpuTime: true });
      const elapsed = performance.now() - started;
      const output = `${result.stdout}${result.stderr}`;
      expect(result.code, output).toBe(1);
      if (mutant.caughtBy === 'never-selected') {
        // Dead flow: a route alternative no valid input selects, named with the reason.
        expect(result.stdout).toMatch(/\(never selected: no valid input of \d+ tried selects it/);
        expect(result.stderr).toMatch(
          new RegExp(`route alternatives no valid input selects: ${mutant.base} \\w+ route \\w+`),
        );
      } else if (/^[a-z]+(_[a-z]+)+$/.test(mutant.caughtBy)) {
        // A load problem: file:line:column and the code, nothing checked.
        expect(result.stdout).toMatch(
          new RegExp(`${mutant.base}\\.yaml:\\d+:\\d+: ${mutant.caughtBy} `),
        );
        expect(result.stderr).toContain('does not load');
      } else {
        expect(result.stdout, output).toMatch(PROPERTY_ROW(mutant.base, mutant.caughtBy));
        expect(result.stdout).toMatch(
          new RegExp(
            `replay: programrun check \\S+ --seed \\d+ --path \\S+ --property ${mutant.caughtBy}`,
          ),
        );
      }
      const took = `${name} took ${Math.round(result.cpuMs!)} ms of CPU (${Math.round(elapsed)} ms of wall-clock time)`;
      expect(result.cpuMs, took).toBeGreaterThan(0);
      expect(result.cpuMs, took).toBeLessThan(BUDGET_MS);
    },
  );

  it.each([...new Set(mutants.map((mutant) => mutant.base))])(
    'programrun check at its defaults passes the unmutated %s',
    async (base) => {
      const file = await scenarioFile(`base-${base}`, base, baseText(base));
      const result = await programrun(['check', file]);
      expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    },
  );
});
