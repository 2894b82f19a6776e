import { describe, expect, it } from 'vitest';
import { programrun } from './run-bin.js';

// The testing package's seeded-bug fixture: it loads, but a bank outage loops
// send_payout → timeout → repair → expiry → send_payout forever (termination fails).
const SEEDED_BUG = 'packages/testing/test/fixtures/supplier-payout@v1.yaml';

describe('programrun check', () => {
  it('passes on a catalogue scenario with a summary table', async () => {
    const result = await programrun([
      'check',
      'scenarios/wallet-delivery@v1.yaml',
      '--runs',
      '5',
      '--seed',
      '11',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^scenario +property +runs +result +time$/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^wallet-delivery@v1 +termination +5 +passed +\d+\.\d s$/),
    );
    expect(lines.at(-2)).toMatch(
      /^1 scenario, 9 properties: all passed \(\d+ traces in \d+\.\d s\)$/,
    );
    expect(lines.at(-1)).toBe('seed 11; 5 runs per property');
    // Not a terminal: progress as plain lines on stderr, a line per quarter.
    expect(result.stderr).toMatch(/^wallet-delivery@v1: 2\d% \(\d+\/45 cases, /);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^wallet-delivery@v1: 100% \(45\/45 cases, \d+\.\d s\)$/,
    );
  });

  it('exits 1 on a seeded bug, with the timeline and a replay line that replays it', async () => {
    const result = await programrun([
      'check',
      SEEDED_BUG,
      '--runs',
      '100',
      '--seed',
      '42',
      '--property',
      'termination',
      '--property',
      'invariants',
      '--quiet',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'programrun check: 1 property failed: supplier-payout@v1 termination\n',
    );
    const out = result.stdout;
    expect(out).toMatch(/\nsupplier-payout@v1 {2}termination +\d+ {2}FAILED {2}\d+\.\d s\n/);
    expect(out).toMatch(/\nsupplier-payout@v1 {2}invariants +100 {2}passed {2}\d+\.\d s\n/);
    expect(out).toContain('✗ supplier-payout@v1 termination failed after ');
    expect(out).toContain('a loop that no max_attempts bounds');
    expect(out).toContain('handoff.timed_out send_payout');
    const replay =
      /replay: (programrun check \S+ --seed 42 --path \S+ --property termination)\n/.exec(out);
    expect(replay).not.toBeNull();

    const args = replay![1]!.split(' ').slice(1);
    const replayed = await programrun([...args, '--quiet']);
    expect(replayed.code).toBe(1);
    expect(replayed.stdout).toMatch(/\nsupplier-payout@v1 {2}termination +1 {2}FAILED /);
    expect(replayed.stdout).toContain(replay![1]!);
  });

  it('exits 2 with one line for usage problems', async () => {
    const usage = [
      ['check', 'scenarios/wallet-delivery@v1.yaml', '--runs', '0'],
      ['check', 'scenarios/wallet-delivery@v1.yaml', '--path', '1:0'],
      ['check', 'scenarios', '--seed', '1', '--path', '1:0'],
      ['check', 'scenarios/wallet-delivery@v1.yaml', '--property', 'speed'],
      ['check', 'nowhere'],
    ];
    const results = await Promise.all(usage.map((args) => programrun(args)));
    for (const [index, result] of results.entries()) {
      const args = usage[index]!.join(' ');
      expect(result.code, args).toBe(2);
      expect(result.stderr, args).toMatch(/^programrun check: [^\n]+\n$/);
    }
    const broken = await programrun(['check', 'packages/cli/test/fixtures/broken@v1.yaml']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('broken@v1.yaml:42:16: unknown_party ');
    expect(broken.stderr).toBe(
      'programrun check: 1 scenario does not load (2 errors); nothing was checked\n',
    );
  });
});
