import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programrun, ROOT } from './run-bin.js';

let directory = '';

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'programrun-new-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('programrun new', () => {
  it('scaffolds a scenario that validates and simulates, and its test', async () => {
    const target = join(directory, 'scenarios');
    const created = await programrun([
      'new',
      'demo-payout',
      '--dir',
      target,
      '--family',
      'wallet_delivery',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const file = join(target, 'demo-payout@v1.yaml');
    expect(created.stdout).toContain(`Created ${file} (demo-payout@v1 sha256:`);
    expect(created.stdout).toContain(`Created ${join(target, 'demo-payout.test.ts')}`);
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')[0]).toMatch(
      /^# yaml-language-server: \$schema=\S+scenario\.schema\.json$/,
    );
    // The schema resolves on this machine (here: the copy the CLI itself depends on).
    const schema = /\$schema=(\S+)$/.exec(text.split('\n')[0]!)![1]!;
    expect(existsSync(resolve(target, schema))).toBe(true);
    expect(text).toContain('family: wallet_delivery');
    const test = await readFile(join(target, 'demo-payout.test.ts'), 'utf8');
    expect(test).toContain("import { scenarioSuite } from '@programrun/testing';");
    expect(test).toContain(
      "await scenarioSuite(new URL('./demo-payout@v1.yaml', import.meta.url));",
    );

    const validated = await programrun(['validate', file]);
    expect(validated).toMatchObject({ code: 0, stderr: '' });
    expect(validated.stdout).toContain(`${file}: ok demo-payout@v1 `);
    const simulated = await programrun(['simulate', file]);
    expect(simulated.code).toBe(0);
    expect(simulated.stdout).toContain('status      completed');
    // Its checks pass at the defaults, every reachable edge taken.
    const checked = await programrun(['check', file, '--quiet', '--seed', '1']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/\nedges covered (\d+)\/\1\n/);
  });

  it('points $schema at the schema of @programrun/scenarios in the nearest node_modules', async () => {
    const inside = join('packages', 'cli', 'test', `.new-${process.pid}`);
    try {
      const created = await programrun(['new', 'nested-demo', '--dir', inside]);
      expect(created.code).toBe(0);
      const text = await readFile(join(ROOT, inside, 'nested-demo@v1.yaml'), 'utf8');
      expect(text.split('\n')[0]).toBe(
        '# yaml-language-server: $schema=../../node_modules/@programrun/scenarios/scenario.schema.json',
      );
    } finally {
      await rm(join(ROOT, inside), { recursive: true, force: true });
    }
  });

  it('refuses an invalid name or an existing file with one line (exit 1)', async () => {
    const target = join(directory, 'refusals');
    expect((await programrun(['new', 'taken', '--dir', target])).code).toBe(0);
    const again = await programrun(['new', 'taken', '--dir', target]);
    expect(again).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `programrun new: ${join(target, 'taken@v1.yaml')} already exists; nothing was written\n`,
    });
    const names = ['Demo', 'demo_payout', 'demo-payout@v2', '-x'];
    const results = await Promise.all(
      names.map((name) => programrun(['new', '--dir', target, '--', name])),
    );
    for (const [index, result] of results.entries()) {
      expect(result.code, names[index]).toBe(1);
      expect(result.stderr, names[index]).toMatch(
        /^programrun new: "[^"]+" is not a scenario name: [^\n]+\n$/,
      );
    }
    const family = await programrun(['new', 'other', '--dir', target, '--family', 'payroll']);
    expect(family.code).toBe(2);
    expect(family.stderr).toMatch(/^programrun new: --family must be one of /);
  });
});
