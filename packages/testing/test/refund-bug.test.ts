// The rare-path bug that directed checking exists for: merchant-refund@v1 with the
// re-credit's balancing leg deleted (test/mutations/refund-recredit-leg-deleted.yaml). Only a
// refund the acquirer declines, fails or never confirms reaches the compensation; random
// plans alone seldom get there. At default settings every seed must find it, quickly, with
// the timeline that shows the path and the line that replays it.
import { compile, loadScenario } from '@programrun/dsl';
import { describe, expect, it } from 'vitest';
import { checkScenario, formatCheckReport } from '../src/index.js';
import { loadMutants } from './mutations/mutants.js';

const mutant = loadMutants().find((found) => found.name === 'refund-recredit-leg-deleted')!;
const loaded = loadScenario(mutant.text, { file: 'merchant-refund@v1.yaml' });
if (!loaded.ok) throw new Error(loaded.problems.map((problem) => problem.message).join('\n'));
const compiled = compile(loaded.scenario);
const SEEDS = Array.from({ length: 20 }, (_, index) => 1 + index * 7_919);

describe('the deleted re-credit leg of merchant-refund@v1', () => {
  it('passes validation: nothing static can see a missing leg', () => {
    expect(loaded.problems).toEqual([]);
  });

  it.each(SEEDS)('is caught at default settings with seed %i, within 10 s', async (seed) => {
    const report = await checkScenario(compiled, { seed });
    expect(report.durationMs).toBeLessThan(10_000);
    const failed = report.properties.filter((property) => !property.passed);
    expect(failed.map((property) => property.name)).toEqual(['money-conservation']);
    const { failure } = failed[0]!;
    expect(failure!.message).toMatch(
      /^EUR: debits \d+\.\d\d ≠ credits \d+\.\d\d on a faulted run \(moved: merchant_debit debit/,
    );
    // The shrunk timeline shows the compensation, and the replay line reproduces it.
    expect(failure!.timeline).toContain('compensation.started');
    expect(failure!.timeline).toContain('recredit_merchant');
    expect(failure!.replay).toContain(`checkScenario(compiled, { seed: ${seed}, path: "`);
    expect(formatCheckReport(report)).toContain('money-conservation');
  });

  it('replays the counterexample from its seed and path', async () => {
    const report = await checkScenario(compiled, { seed: 5, properties: ['money-conservation'] });
    const { failure } = report.properties[0]!;
    const replay = await checkScenario(compiled, {
      seed: failure!.seed,
      path: failure!.path,
      properties: ['money-conservation'],
    });
    expect(replay.properties[0]!.runs).toBe(1);
    expect(replay.properties[0]!.failure!.timeline).toBe(failure!.timeline);
  });
});
