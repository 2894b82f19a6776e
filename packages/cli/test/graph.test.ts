import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programrun } from './run-bin.js';

const WALLET = 'scenarios/wallet-delivery@v1.yaml';
let directory = '';

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'programrun-graph-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('programrun graph', () => {
  it('prints the Mermaid flowchart of the stages and steps', async () => {
    const result = await programrun(['graph', WALLET, '--format', 'mermaid']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const text = result.stdout;
    expect(text.startsWith('flowchart TD\n')).toBe(true);
    for (const stage of ['intake', 'release', 'delivery'])
      expect(text).toContain(`subgraph stage_${stage}`);
    for (const step of [
      'amount_gate',
      'screen_destination',
      'release_approval',
      'transfer_to_wallet',
    ])
      expect(text).toContain(`step_${step}`);
    // Mermaid is the default.
    expect((await programrun(['graph', WALLET])).stdout).toBe(text);
  });

  it('writes a standalone SVG to --out', async () => {
    const out = join(directory, 'diagrams', 'wallet.svg');
    const result = await programrun(['graph', WALLET, '--format', 'svg', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^Wrote \S+wallet\.svg \(wallet-delivery@v1, svg, \d+ bytes\)\n$/,
    );
    const svg = await readFile(out, 'utf8');
    expect(svg).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
    );
    expect(svg).toContain('data-step="release_approval"');
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    // On stdout too, and .svg picks the format.
    const printed = await programrun(['graph', WALLET, '--format', 'svg']);
    expect(printed.stdout).toBe(svg);
    const inferred = join(directory, 'inferred.svg');
    expect((await programrun(['graph', WALLET, '--out', inferred])).code).toBe(0);
    expect(await readFile(inferred, 'utf8')).toBe(svg);
  });

  it('refuses bad input with one line', async () => {
    const format = await programrun(['graph', WALLET, '--format', 'png']);
    expect(format).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'programrun graph: --format must be mermaid or svg, not "png"\n',
    });
    const broken = await programrun(['graph', 'packages/cli/test/fixtures/broken@v1.yaml']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(
      /^programrun graph: packages\/cli\/test\/fixtures\/broken@v1\.yaml has 2 problems \(run programrun validate [^)]+\); the first: [^\n]+:28:24: invalid_expression [^\n]+\n$/,
    );
    expect((await programrun(['graph'])).code).toBe(2);
  });
});
