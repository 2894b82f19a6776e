import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programrun, ROOT } from './run-bin.js';

const UPGRADES = 'packages/dsl/test/fixtures/upgrades';
const V1 = 'scenarios/bank-payout@v1.yaml';
const V2 = `${UPGRADES}/bank-payout@v2.yaml`;
const MIGRATION = `${UPGRADES}/bank-payout@v1-to-v2.yaml`;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'programrun-upgrade-'));
  await copyFile(join(ROOT, V1), join(directory, 'bank-payout@v1.yaml'));
  await copyFile(join(ROOT, V2), join(directory, 'bank-payout@v2.yaml'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** `upgrade check` of bank-payout@v1 → v2 by id, from the test's scenario directory. */
const checkById = (...extra: string[]) => [
  'upgrade',
  'check',
  'bank-payout@v1',
  'bank-payout@v2',
  '--scenarios',
  directory,
  ...extra,
];

describe('programrun upgrade check', () => {
  it('exits 0 and shows where the runs waiting at each step go', async () => {
    const result = await programrun(['upgrade', 'check', V1, V2, '--migration', MIGRATION]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`bank-payout@v1 → bank-payout@v2 (migration ${MIGRATION})`);
    expect(lines).toContain('  release_approval    → release_approval');
    expect(lines).toContain('  execute_payout      stays on bank-payout@v1');
    expect(lines).toHaveLength(11);
  });

  it('shows the inputs a migration gives moved runs, and exits 1 when v2 needs one it does not give', async () => {
    const PURPOSE = `${UPGRADES}/purpose-code`;
    const given = await programrun([
      'upgrade',
      'check',
      V1,
      `${PURPOSE}/bank-payout@v2.yaml`,
      '--migration',
      `${PURPOSE}/bank-payout@v1-to-v2.yaml`,
    ]);
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toContain(
      "  moved runs get input purpose_code = handoffs.verify_payee.data.name_match == 'match' ? 'SUPP' : 'OTHR'\n",
    );
    // The same v2 on its own (no migration beside it).
    const alone = join(directory, 'purpose-code');
    await mkdir(alone, { recursive: true });
    await copyFile(join(ROOT, PURPOSE, 'bank-payout@v2.yaml'), join(alone, 'bank-payout@v2.yaml'));
    const missing = await programrun(['upgrade', 'check', V1, join(alone, 'bank-payout@v2.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      `${join(alone, 'bank-payout@v2.yaml')}:30:7: upgrade_missing_data runs of bank-payout@v1 may have no input "purpose_code", which bank-payout@v2 requires: give it under context.inputs in the migration\n`,
    );
  });

  it("shows a deadline the migration moves, and refuses a shortened one at the migration's line", async () => {
    const v1 = await readFile(join(ROOT, V1), 'utf8');
    const withExpiry = (expires: string) =>
      v1
        .replace('version: v1', 'version: v2')
        .replace(
          'maker_checker: true\n        expires: PT8H\n',
          `maker_checker: true\n        expires: ${expires}\n`,
        );
    const moving = join(directory, 'deadlines');
    await mkdir(moving, { recursive: true });
    const migration = join(moving, 'bank-payout@v1-to-v2.yaml');
    await writeFile(
      migration,
      'scenario: bank-payout\nfrom: v1\nto: v2\ndeadlines:\n  release_approval: new_version\n',
    );
    const v2 = join(moving, 'bank-payout@v2.yaml');
    await writeFile(v2, withExpiry('P1D'));
    const longer = await programrun(['upgrade', 'check', V1, v2]);
    expect(longer.code, longer.stderr).toBe(0);
    expect(longer.stdout).toContain(
      '  release_approval    → release_approval  (deadline PT8H → P1D)\n',
    );
    await writeFile(v2, withExpiry('PT1H'));
    const shorter = await programrun(['upgrade', 'check', V1, v2]);
    expect(shorter.code).toBe(1);
    expect(shorter.stdout).toContain(
      `${migration}:5:21: upgrade_deadline_shortened runs waiting at "release_approval"`,
    );
  });

  it('exits 1 with the problem at its line and column, and the counterexample', async () => {
    // By ids, from a directory holding both versions and no migration: steps map by id.
    const result = await programrun(checkById());
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('(no migration: steps map by id)');
    expect(result.stdout).toContain('  execute_payout      → execute_payout  UNSAFE');
    expect(result.stdout).toMatch(
      /bank-payout@v2\.yaml:184:5: upgrade_invariant_violated invariant "held_screened_released_before_payout" breaks for runs waiting at "execute_payout" \(payout_limits → .* → execute_payout\): "execute_payout" has started and "rescreen_gate" has not completed on every path to it\n/,
    );
    // Runs whose payout was sent (waiting for its confirmation, or at its gate) broke it too.
    expect(result.stdout).toContain('  confirm_credit      → confirm_credit  UNSAFE');
    expect(result.stdout).toMatch(
      /breaks for runs waiting at "credit_gate" \(.*\): "execute_payout" may have completed before "rescreen_gate" completed, on a path to it\n/,
    );
    expect(result.stderr).toBe(
      'programrun upgrade: unsafe: 3 problem(s) in 3 of 10 waiting states\n',
    );
  });

  it('finds the migration beside the new version, and reports as JSON', async () => {
    await copyFile(join(ROOT, MIGRATION), join(directory, 'bank-payout@v1-to-v2.yaml'));
    try {
      const result = await programrun(checkById('--format', 'json'));
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as {
        ok: boolean;
        migration: string;
        states: { state: string; stays?: true }[];
      };
      expect(report.ok).toBe(true);
      expect(report.migration).toBe(join(directory, 'bank-payout@v1-to-v2.yaml'));
      expect(report.states.find(({ state }) => state === 'execute_payout')?.stays).toBe(true);
      // The migration beside the scenarios is not a scenario to validate.
      const validated = await programrun(['validate', directory]);
      expect(validated.code, validated.stdout).toBe(0);
      expect(validated.stdout).toContain('2 files: all ok');
    } finally {
      await rm(join(directory, 'bank-payout@v1-to-v2.yaml'));
    }
  });

  it('points at a broken migration, and exits 2 for usage problems', async () => {
    const broken = join(directory, 'broken-migration.yaml');
    await writeFile(
      broken,
      'scenario: bank-payout\nfrom: v1\nto: v2\nstates:\n  release_approval: [x]\n',
    );
    const result = await programrun(['upgrade', 'check', V1, V2, '--migration', broken]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`${broken}:5:21: invalid_value `));
    expect(result.stderr).toBe(
      'programrun upgrade: 1 problem(s) before any state could be checked\n',
    );

    for (const args of [
      ['upgrade'],
      ['upgrade', 'apply', V1, V2],
      ['upgrade', 'check', V1],
      ['upgrade', 'check', V1, 'missing@v9.yaml'],
    ]) {
      const usage = await programrun(args);
      expect(usage.code, args.join(' ')).toBe(2);
      expect(usage.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});
