import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  base64,
  sealEvidence,
  utf8,
  type DsseEnvelope,
  type EvidenceStatement,
} from '@programrun/evidence';
import { runCli } from '../src/index.js';
import { exportCompletedRun } from './exported-run.js';
import { exportedPerEnvironment } from './exported-environments.js';

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

/** The run id the exported bundle is for (read from its verified summary). */
async function exportedRunId(): Promise<string> {
  const verified = await cli(['verify', bundlePath, '--jwks', jwksPath]);
  return /^Run +(prun_\w+)/m.exec(verified.out)![1]!;
}

describe('programrun verify on failure', () => {
  it('prints only the reason, one line on stderr, and nothing from the bundle', async () => {
    const tampered = await cli([
      'verify',
      file('tampered-only.json', withTamperedRecord(exported.envelope)),
      '--jwks',
      jwksPath,
    ]);
    expect(tampered.code).toBe(1);
    expect(tampered.out).toBe('');
    expect(tampered.err.split('\n')).toHaveLength(1);
    const runId = await exportedRunId();
    const foreign = await cli([
      'verify',
      bundlePath,
      '--jwks',
      file('no-keys.json', JSON.stringify({ keys: [] })),
    ]);
    expect(foreign).toMatchObject({ code: 1, out: '' });
    expect(foreign.err).not.toContain(runId);
    expect(foreign.err).not.toMatch(/Scenario|Status|Parties|Stages|✓/);
  });
});

describe('programrun verify with pins', () => {
  it('passes when the bundle is the expected run, environment, scenario and key', async () => {
    const runId = await exportedRunId();
    const kid = (JSON.parse(exported.envelope) as DsseEnvelope).signatures[0]!.keyid!;
    const result = await cli([
      'verify',
      bundlePath,
      '--jwks',
      jwksPath,
      '--run',
      runId,
      '--env',
      'test',
      '--scenario',
      'wallet-delivery@v1',
      '--kid',
      kid,
    ]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      `✓ expected   run ${runId}, environment test, scenario wallet-delivery@v1, key ${kid}`,
    );
    expect(result.out).toContain('Evidence verified.');
    expect(
      (await cli(['verify', bundlePath, '--jwks', jwksPath, '--environment', 'test'])).code,
    ).toBe(0);
  });

  it('exits 1 with one line when a valid bundle is for another run, environment, scenario or key', async () => {
    const runId = await exportedRunId();
    const pinned = (...pins: string[]) => cli(['verify', bundlePath, '--jwks', jwksPath, ...pins]);
    expect(await pinned('--run', 'prun_someoneelse')).toEqual({
      code: 1,
      out: '',
      err: `verification failed at expected: run ${runId}, expected prun_someoneelse`,
    });
    expect(await pinned('--env', 'live')).toEqual({
      code: 1,
      out: '',
      err: 'verification failed at expected: environment test, expected live',
    });
    expect((await pinned('--scenario', 'wallet-delivery@v2')).err).toBe(
      'verification failed at expected: scenario wallet-delivery@v1, expected wallet-delivery@v2',
    );
    expect((await pinned('--scenario-digest', `sha256:${'0'.repeat(64)}`)).code).toBe(1);
    expect((await pinned('--kid', 'A'.repeat(43))).err).toMatch(
      /^verification failed at expected: key \S+, expected A{43}$/,
    );
  });

  it('exits 2 with the reason when a pin is malformed', async () => {
    const pinned = (...pins: string[]) => cli(['verify', bundlePath, '--jwks', jwksPath, ...pins]);
    expect(await pinned('--env', 'production')).toEqual({
      code: 2,
      out: '',
      err: 'programrun verify: --env must be test or live, not "production"',
    });
    expect((await pinned('--run', 'run_123')).err).toBe(
      'programrun verify: --run must be a run id (prun_…), not "run_123"',
    );
    expect((await pinned('--scenario', 'wallet-delivery')).code).toBe(2);
    expect((await pinned('--scenario-digest', 'abc')).code).toBe(2);
    expect((await pinned('--kid', 'short')).code).toBe(2);
    expect((await pinned('--env', 'test', '--environment', 'live')).err).toBe(
      'programrun verify: --env and --environment disagree; give one',
    );
    expect((await pinned('--bogus')).code).toBe(2);
  });
});

describe('programrun verify with a key per environment', () => {
  let evidence: Awaited<ReturnType<typeof exportedPerEnvironment>>;
  beforeAll(async () => {
    evidence = await exportedPerEnvironment();
  });

  it('verifies each environment against the JWKS of both, pinned to its own', async () => {
    const jwks = file('both.json', evidence.jwks);
    const test = file('env-test.json', evidence.test.envelope);
    const live = file('env-live.json', evidence.live.envelope);
    const liveResult = await cli(['verify', live, '--jwks', jwks, '--env', 'live']);
    expect(liveResult.code).toBe(0);
    expect(liveResult.out).toContain(
      `✓ key        Ed25519 key ${evidence.live.kid} (live evidence)`,
    );
    expect(liveResult.out).toContain(`Run       ${evidence.live.runId} (live)`);
    expect((await cli(['verify', test, '--jwks', jwks, '--env', 'test'])).code).toBe(0);
  });

  it('fails a test bundle pinned to live, and a live bundle against the test keys only', async () => {
    const jwks = file('both-2.json', evidence.jwks);
    const test = file('env-test-2.json', evidence.test.envelope);
    const live = file('env-live-2.json', evidence.live.envelope);
    expect(await cli(['verify', test, '--jwks', jwks, '--env', 'live'])).toEqual({
      code: 1,
      out: '',
      err: 'verification failed at expected: environment test, expected live',
    });
    expect(
      await cli(['verify', live, '--jwks', file('test-only.json', evidence.testJwks)]),
    ).toEqual({
      code: 1,
      out: '',
      err: `verification failed at key: no key ${evidence.live.kid} in the JWKS`,
    });
    expect(
      (await cli(['verify', test, '--jwks', file('live-only.json', evidence.liveJwks)])).code,
    ).toBe(1);
  });

  it('refuses a live bundle signed with the test key, though its signature is valid', async () => {
    const envelope = JSON.parse(evidence.test.envelope) as DsseEnvelope;
    const { predicate } = JSON.parse(
      new TextDecoder().decode(base64.decode(envelope.payload)),
    ) as EvidenceStatement;
    const forged = file(
      'forged.json',
      JSON.stringify(
        sealEvidence(
          { ...predicate, run: { ...predicate.run, environment: 'live', livemode: true } },
          evidence.test.signer,
        ),
      ),
    );
    const jwks = file('both-3.json', evidence.jwks);
    expect(await cli(['verify', forged, '--jwks', jwks])).toEqual({
      code: 1,
      out: '',
      err: `verification failed at key: the JWKS key ${evidence.test.kid} signs test evidence only, and the bundle claims the live environment`,
    });
  });
});
