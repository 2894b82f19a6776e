import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programrun } from './run-bin.js';

const WALLET = 'scenarios/wallet-delivery@v1.yaml';
let directory = '';

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'programrun-simulate-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('programrun simulate', () => {
  it('completes the happy path on example_inputs and prints the timeline', async () => {
    const result = await programrun(['simulate', WALLET]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(
      /^wallet-delivery@v1 sha256:[0-9a-f]{64} — test environment, seed 0, inputs: example_inputs\n/,
    );
    expect(out).toContain(
      '2026-06-01T08:00:00.000Z  +0s       stage.started       ▸ stage intake entered',
    );
    expect(out).toContain(
      'handoff.requested   handoff screen_destination started: wallet.screen by chain_analytics',
    );
    expect(out).toContain('… waits for chain_analytics to answer until 2026-06-01T08:10:00.000Z');
    expect(out).toContain(
      '2026-06-01T08:00:20.000Z  +20s      handoff.confirmed   handoff screen_destination completed',
    );
    expect(out).toContain('… waits for an approval by treasury_ops until 2026-06-01T12:00:20.000Z');
    expect(out).toContain(
      'approval release_approval completed: granted by treasury_ops:simulated_1',
    );
    expect(out).toMatch(
      /\nstatus {6}completed\nrecords {5}18\nchain head {2}sha256:[0-9a-f]{64}\n$/,
    );
    // Same seed, same records.
    const again = await programrun(['simulate', WALLET]);
    expect(again.stdout).toBe(out);
  });

  it('rejects --reject approvals and exits 1 when the run faults', async () => {
    const result = await programrun(['simulate', WALLET, '--reject', 'release_approval']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'approval.rejected   approval release_approval failed: rejected (treasury_ops:simulated_1)',
    );
    expect(result.stdout).toContain('status      faulted — approval_rejected at release_approval');
    expect(result.stderr).toBe(
      'programrun simulate: the run faulted at release_approval: approval_rejected\n',
    );
  });

  it('fails --fail handoffs and prints lifecycle records with --format json', async () => {
    const result = await programrun([
      'simulate',
      WALLET,
      '--fail',
      'transfer_to_wallet',
      '--seed',
      '7',
      '--format',
      'json',
    ]);
    expect(result.code).toBe(1);
    const records = JSON.parse(result.stdout) as {
      sequence: number;
      type: string;
      step: string | null;
      hash: string;
    }[];
    expect(records.map((record) => record.sequence)).toEqual(records.map((_, index) => index + 1));
    expect(records.at(-3)).toMatchObject({
      type: 'program_run.handoff.failed',
      step: 'transfer_to_wallet',
    });
    expect(records.at(-2)).toMatchObject({
      type: 'program_run.faulted',
      step: 'transfer_to_wallet',
    });
    expect(records.at(-1)!.type).toBe('program_run.evidence.sealed');
    expect(result.stderr).toBe(
      'programrun simulate: the run faulted at transfer_to_wallet: handoff_failed\n',
    );
  });

  it('reads --inputs and reports invalid inputs in validate’s style', async () => {
    const good = join(directory, 'good.json');
    await writeFile(
      good,
      JSON.stringify({
        amount: '20.00',
        destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      }),
    );
    const ran = await programrun(['simulate', WALLET, '--inputs', good]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`inputs: ${good}`);

    const bad = join(directory, 'bad.json');
    await writeFile(bad, '{\n  "amount": "12",\n  "colour": "red"\n}\n');
    const refused = await programrun(['simulate', WALLET, '--inputs', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stdout.trimEnd().split('\n')).toEqual([
      `${bad}:1:1: missing_input destination_wallet_address is required`,
      expect.stringMatching(
        new RegExp(`^${bad.replace(/[.]/g, '\\.')}:2:13: invalid_input amount `),
      ),
      `${bad}:3:3: unknown_input colour is not an input of this scenario`,
    ]);
    expect(refused.stderr).toBe(
      `programrun simulate: ${bad} has 3 input problems; no run was created\n`,
    );
  });

  it('exits 2 with one line for usage problems', async () => {
    const usage = [
      ['simulate'],
      ['simulate', WALLET, '--reject', 'transfer_to_wallet'],
      ['simulate', WALLET, '--fail', 'nope'],
      ['simulate', WALLET, '--seed', '-1'],
      ['simulate', WALLET, '--inputs', join(directory, 'missing.json')],
      ['simulate', 'scenarios/missing@v1.yaml'],
    ];
    const results = await Promise.all(usage.map((args) => programrun(args)));
    for (const [index, result] of results.entries()) {
      const args = usage[index]!.join(' ');
      expect(result.code, args).toBe(2);
      expect(result.stderr, args).toMatch(/^programrun simulate: [^\n]+\n$/);
    }
  });
});
