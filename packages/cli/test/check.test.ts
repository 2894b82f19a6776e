import { describe, expect, it } from 'vitest';
import { programrun } from './run-bin.js';

// The testing package's seeded-bug fixture: it loads, but a bank outage loops
// send_payout → timeout → repair → expiry → send_payout forever (termination fails).
const SEEDED_BUG = 'packages/testing/test/fixtures/supplier-payout@v1.yaml';

/** `check` of wallet-delivery@v1 with `runs` cases per property, seed 11. */
const walletCheck = (runs: number) => [
  'check',
  'scenarios/wallet-delivery@v1.yaml',
  '--runs',
  String(runs),
  '--seed',
  '11',
];

/** Quiet `check` of `file` with `seed`, at the default runs and coverage. */
const quietCheck = (file: string, seed: number) => [
  'check',
  file,
  '--seed',
  String(seed),
  '--quiet',
];

describe('programrun check', () => {
  it('passes on a catalogue scenario with a summary table', async () => {
    // Five runs cannot take every edge: --min-coverage 0 lets the check pass on its properties.
    const result = await programrun([...walletCheck(5), '--min-coverage', '0']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^scenario +property +runs +result +time$/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^wallet-delivery@v1 +termination +5 +passed +\d+\.\d s$/),
    );
    const summary = lines.findIndex((line) => line.startsWith('1 scenario, '));
    expect(lines[summary]).toMatch(
      /^1 scenario, 9 properties: all passed \(\d+ traces in \d+\.\d s\)$/,
    );
    expect(lines[summary + 1]).toBe('seed 11; 5 runs per property');
    // Then the edges the traces took, and those they did not.
    expect(lines[summary + 2]).toBe('');
    expect(lines[summary + 3]).toMatch(/^edges covered (\d+)\/(\d+)(; not taken:)?$/);
    const [, covered, total] = /(\d+)\/(\d+)/.exec(lines[summary + 3]!)!;
    expect(lines.slice(summary + 4)).toHaveLength(Number(total) - Number(covered));
    for (const line of lines.slice(summary + 4))
      expect(line).toMatch(/^ {2}\w+: .+ → \w+$|^ {2}\w+: /);
    // Not a terminal: progress as plain lines on stderr, a line per quarter.
    expect(result.stderr).toMatch(/^wallet-delivery@v1: 2\d% \(\d+\/45 cases, /);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^wallet-delivery@v1: 100% \(45\/45 cases, \d+\.\d s\)$/,
    );
  });

  it('lists every edge with its hits under --coverage, and enforces --min-coverage', async () => {
    const listed = await programrun([
      ...walletCheck(5),
      '--quiet',
      '--coverage',
      '--min-coverage',
      '0',
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    const out = listed.stdout;
    expect(out).toMatch(/\nwallet-delivery@v1\nedges covered \d+\/\d+\n {2}hits {2}edge\n/);
    expect(out).toMatch(/\n +\d+ {2}release_approval: success → \w+\n/);

    const short = await programrun([...walletCheck(3), '--quiet', '--min-coverage', '100']);
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(
      /^programrun check: edge coverage under 100 %: wallet-delivery@v1 \d+\/24\n$/,
    );

    const bad = await programrun(['check', 'scenarios', '--min-coverage', '101']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--min-coverage must be a percentage from 0 to 100 or "reachable", not "101"',
    );
  });

  it('enforces every reachable edge by default, naming the edges not taken', async () => {
    // At the default 100 runs every reachable edge of wallet-delivery@v1 is taken.
    const full = await programrun(quietCheck('scenarios/wallet-delivery@v1.yaml', 11));
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).toContain('edges covered 24/24');
    // With 3 runs the directed cases cannot all run: the check names what it left, by
    // default and with --min-coverage reachable alike.
    for (const flags of [[], ['--min-coverage', 'reachable']]) {
      const short = await programrun([...walletCheck(3), '--quiet', ...flags]);
      expect(short.code).toBe(1);
      expect(short.stderr).toMatch(
        /^programrun check: reachable edges no trace took \(raise --runs, or --min-coverage 0 to allow it\): wallet-delivery@v1 [a-z_]+ [a-z_ ]+(, [a-z_]+ [a-z_ ]+)*\n$/,
      );
    }
    // A fee review reached only by a partner answer with two fields changed together.
    const bridge = await programrun(quietCheck('scenarios/bridge-routing@v1.yaml', 5));
    expect(bridge.code, bridge.stderr).toBe(0);
    expect(bridge.stdout).toContain('edges covered 64/64');
  });

  it('says which edges no valid input can take, and does not count them as missed', async () => {
    const result = await programrun([
      ...quietCheck('scenarios/bank-payout@v1.yaml', 3),
      '--property',
      'termination',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/edges covered 61\/62, every reachable edge; not taken:\n/);
    expect(result.stdout).toContain(
      'select_rail: no_route → compensate (unreachable: no valid input of 300 tried takes it and passes the gates before it)',
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
