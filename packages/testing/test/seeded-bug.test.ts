import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { compile } from '@programrun/dsl';
import {
  checkScenario,
  DEFAULT_NUM_RUNS,
  formatCheckReport,
  loadCompiledScenario,
  type CheckReport,
} from '../src/index.js';

// supplier-payout@v1 loads cleanly but, during a bank outage, loops send_payout → timeout →
// repair_beneficiary → expiry → send_payout forever (no max_attempts). See the fixture.
const FIXTURE = new URL('./fixtures/supplier-payout@v1.yaml', import.meta.url);
const compiled = await loadCompiledScenario(FIXTURE);
const termination = (report: CheckReport) =>
  report.properties.find((property) => property.name === 'termination')!;

describe('the seeded bug of supplier-payout@v1', () => {
  it.each([1, 42, 1234, 90_210, 2_026_0601])(
    'is found by checkScenario with the default run count (seed %i)',
    async (seed) => {
      const report = await checkScenario(compiled, { seed, numRuns: DEFAULT_NUM_RUNS });
      expect(report.passed).toBe(false);
      // Only termination breaks: the loop is made of explained waits and keeps every invariant.
      expect(report.properties.filter((property) => !property.passed).map((p) => p.name)).toEqual([
        'termination',
      ]);
      const { failure, runs } = termination(report);
      expect(runs).toBeLessThanOrEqual(DEFAULT_NUM_RUNS);
      expect(failure!.message).toMatch(
        /did not end after the plan and 20 rounds of (approving and moving to the next timer, then 20 of )?letting deadlines lapse: still waiting on (handoff send_payout|approval repair_beneficiary); the drain kept entering (repair_beneficiary ×\d+, send_payout ×\d+|send_payout ×\d+, repair_beneficiary ×\d+) — a loop that no max_attempts bounds/,
      );
      // The shrunk timeline shows the loop: the payout times out into the repair, whose
      // expiry sends the payout again.
      expect(failure!.timeline).toContain('handoff.timed_out send_payout');
      expect(failure!.timeline).toContain(
        'approval.expired repair_beneficiary · stage.rewound repair · stage.started payout · handoff.requested send_payout',
      );
      expect(failure!.timeline).toMatch(/… the same 2 actions repeat \d+ more times/);
      expect(failure!.timeline).toContain('partners silent');
      expect(failure!.replay).toContain(`checkScenario(compiled, { seed: ${seed}, path: "`);
    },
  );

  it('replays the shrunk counterexample exactly from its seed and path', async () => {
    const report = await checkScenario(compiled, { seed: 7, properties: ['termination'] });
    const failure = termination(report).failure!;
    const replay = await checkScenario(compiled, { seed: failure.seed, path: failure.path });
    const replayed = termination(replay);
    expect(replayed.runs).toBe(1);
    expect(replayed.failure!.counterexample).toEqual(failure.counterexample);
    expect(replayed.failure!.timeline).toBe(failure.timeline);
    expect(replayed.failure!.path).toBe(failure.path);
    // The other properties cannot walk that path (skipped) or replay one passing case.
    for (const property of replay.properties.filter((p) => p.name !== 'termination'))
      expect(property.passed).toBe(true);
    const narrowed = await checkScenario(compiled, {
      seed: failure.seed,
      path: failure.path,
      properties: ['termination'],
    });
    expect(termination(narrowed).failure!.timeline).toBe(failure.timeline);
  });

  it('prints a report with the table, the replay commands and the timeline', async () => {
    const report = await checkScenario(compiled, {
      seed: 3,
      properties: ['invariants', 'termination'],
      file: 'test/fixtures/supplier-payout@v1.yaml',
    });
    const text = formatCheckReport(report);
    expect(text).toMatch(/^checkScenario supplier-payout@v1 · seed 3 · 100 runs per property/);
    expect(text).toMatch(/\n {2}invariants +100 {2}passed\n/);
    expect(text).toMatch(/\n {2}termination +\d+ {2}FAILED\n/);
    const { path } = termination(report).failure!;
    expect(text).toContain(
      `replay: checkScenario(compiled, { seed: 3, path: "${path}", properties: ["termination"] })`,
    );
    expect(text).toContain(
      `programrun check test/fixtures/supplier-payout@v1.yaml --seed 3 --path ${path} --property termination`,
    );
    expect(text).toContain('timeline of supplier-payout@v1');
    expect(text).toContain('final: still waiting on');
  });

  it('is gone once send_payout declares max_attempts', async () => {
    const text = await readFile(FIXTURE, 'utf8');
    const fixed = compile(
      text.replace(
        '        on_timeout: repair_beneficiary\n',
        '        on_timeout: repair_beneficiary\n        max_attempts: 3\n',
      ),
    );
    const report = await checkScenario(fixed, { seed: 1, properties: ['termination'] });
    expect(report.passed, formatCheckReport(report)).toBe(true);
  });
});
