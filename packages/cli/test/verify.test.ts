import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64, utf8, type DsseEnvelope } from '@programrun/evidence';
import { runCli } from '../src/index.js';
import { exportCompletedRun } from './exported-run.js';

const directory = mkdtempSync(join(tmpdir(), 'programrun-cli-'));
const file = (name: string, content: string): string => {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
};
let exported: Awaited<ReturnType<typeof exportCompletedRun>>;
let bundlePath: string;
let jwksPath: string;

beforeAll(async () => {
  exported = await exportCompletedRun();
  bundlePath = file('bundle.json', exported.envelope);
  jwksPath = file('keys.json', exported.jwks);
});
afterAll(async () => {
  await exported.close();
});

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The envelope with one lifecycle record changed and the statement re-encoded (signature now stale). */
function withTamperedRecord(text: string): string {
  const envelope = JSON.parse(text) as DsseEnvelope;
  const statement = JSON.parse(new TextDecoder().decode(base64.decode(envelope.payload))) as {
    predicate: { lifecycle: { records: { data: Record<string, unknown> }[] } };
  };
  statement.predicate.lifecycle.records[3]!.data.tampered = true;
  return JSON.stringify({ ...envelope, payload: base64.encode(utf8(JSON.stringify(statement))) });
}

describe('programrun verify', () => {
  it('verifies evidence exported over HTTP and prints a summary', async () => {
    const result = await cli(['verify', bundlePath, '--jwks', jwksPath]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/✓ signature +signed by /);
    expect(result.out).toMatch(/✓ chain +\d+ records, contiguous, every hash recomputed/);
    expect(result.out).toContain('Scenario  wallet-delivery@v1');
    expect(result.out).toContain('Status    completed');
    expect(result.out).toMatch(/custodian +custody +Demo asset custodian/);
    expect(result.out).toMatch(/delivery +completed +\S+ → \S+/);
    expect(result.out).toContain('Evidence verified.');
  });

  it('fetches the JWKS from a URL', async () => {
    expect((await cli(['verify', bundlePath, '--jwks', exported.jwksUrl])).code).toBe(0);
  });

  it('exits 1 and names the first broken link', async () => {
    const tampered = await cli([
      'verify',
      file('tampered.json', withTamperedRecord(exported.envelope)),
      '--jwks',
      jwksPath,
    ]);
    expect(tampered.code).toBe(1);
    expect(tampered.err).toMatch(/verification failed at (payload|signature)/);
    const otherKeys = file('other.json', JSON.stringify({ keys: [] }));
    const foreign = await cli(['verify', bundlePath, '--jwks', otherKeys]);
    expect(foreign.code).toBe(1);
    expect(foreign.err).toMatch(/verification failed at key: no key \S+ in the JWKS/);
  });

  it('exits 2 on usage errors and unreadable input', async () => {
    expect((await cli(['verify', bundlePath])).code).toBe(2);
    expect(
      (await cli(['verify', join(directory, 'missing.json'), '--jwks', jwksPath])).err,
    ).toContain('cannot read');
    expect(
      (await cli(['verify', bundlePath, '--jwks', file('bad.json', '{"keys": 1}')])).code,
    ).toBe(2);
    expect((await cli(['launch'])).code).toBe(2);
    expect((await cli([])).code).toBe(2);
  });

  it('says when the file is an error answer saved in place of the bundle', async () => {
    const refused = file(
      'refused.json',
      JSON.stringify({
        type: 'https://programrun.dev/problems/lead_required',
        title: 'Evidence export needs a linked lead',
        status: 403,
        detail: 'Link a request-access lead to the run’s session first.',
        code: 'lead_required',
        request_id: 'req_1',
        errors: [],
      }),
    );
    const result = await cli(['verify', refused, '--jwks', jwksPath]);
    expect(result).toEqual({
      code: 2,
      out: '',
      err: `programrun verify: ${refused} is a problem document, not an evidence envelope: Evidence export needs a linked lead (403 lead_required) (the export was refused; fix that and export again)`,
    });
  });

  it('runs as the programrun binary with the right exit codes', async () => {
    const run = promisify(execFile);
    const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
    const args = [
      '--conditions=@programrun/source',
      '--import',
      'tsx',
      bin,
      'verify',
      bundlePath,
      '--jwks',
      jwksPath,
    ];
    const ok = await run(process.execPath, args);
    expect(ok.stdout).toContain('Evidence verified.');
    const failed = await run(process.execPath, [
      ...args.slice(0, 5),
      file('bad-bundle.json', withTamperedRecord(exported.envelope)),
      '--jwks',
      jwksPath,
    ]).then(
      () => 0,
      (error: { code?: number }) => error.code,
    );
    expect(failed).toBe(1);
  });
});
