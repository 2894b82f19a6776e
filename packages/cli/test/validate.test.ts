import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, programrun, ROOT } from './run-bin.js';

const BROKEN = 'packages/cli/test/fixtures/broken@v1.yaml';
const SCENARIOS = readdirSync(join(ROOT, 'scenarios')).filter((name) => name.endsWith('.yaml'));

describe('programrun validate', () => {
  it('reports every catalogue scenario ok and exits 0', async () => {
    const result = await programrun(['validate', 'scenarios']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(SCENARIOS.length + 1);
    for (const name of SCENARIOS)
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^scenarios/${name}: ok \\S+@v\\d+ sha256:[0-9a-f]{64}$`)),
      );
    expect(lines.at(-1)).toBe(`${SCENARIOS.length} files: all ok`);
  });

  it('prints file:line:column: code message for each problem, sorted, and exits 1', async () => {
    const result = await programrun(['validate', BROKEN, 'scenarios/wallet-delivery@v1.yaml']);
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${BROKEN}:28:24: invalid_expression `));
    expect(lines[1]).toBe(
      `${BROKEN}:42:16: unknown_party party "bnak" is not declared under parties (bank)`,
    );
    expect(lines[2]).toMatch(/^scenarios\/wallet-delivery@v1\.yaml: ok /);
    expect(lines[3]).toBe('2 files: 1 ok, 1 with problems (2 errors)');
    expect(result.stderr).toBe('programrun validate: 2 errors in 1 of 2 files\n');
  });

  it('prints only a JSON array of diagnostics with --format json', async () => {
    const result = await programrun(['validate', '--format', 'json', BROKEN]);
    expect(result.code).toBe(1);
    const diagnostics = JSON.parse(result.stdout) as unknown[];
    expect(diagnostics).toHaveLength(2);
    expect(diagnostics[1]).toEqual({
      file: BROKEN,
      line: 42,
      column: 16,
      code: 'unknown_party',
      message: 'party "bnak" is not declared under parties (bank)',
      severity: 'error',
    });
    const fine = await programrun(['validate', '--format', 'json', 'scenarios']);
    expect(fine).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(fine.stdout)).toEqual([]);
  });

  it('exits 2 with one line for usage problems', async () => {
    const usage = [
      ['validate', 'no-such-dir'],
      ['validate', '--format', 'xml', 'scenarios'],
      ['validate', '--strict', 'scenarios'],
      ['validate', FIXTURES.replace(/fixtures\/$/, 'run-bin.ts').replace(/\.ts$/, '-missing')],
    ];
    const results = await Promise.all(usage.map((args) => programrun(args)));
    for (const [index, result] of results.entries()) {
      const args = usage[index]!.join(' ');
      expect(result.code, args).toBe(2);
      expect(result.stderr, args).toMatch(/^programrun validate: [^\n]+\n$/);
    }
  });
});
