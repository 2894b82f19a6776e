import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateEd25519Jwk, jwkThumbprint, type Jwks } from '@programrun/evidence';
import { runCli } from '../src/index.js';
import { serverBanner } from '../src/serve/banner.js';
import { referenceEvidenceKeys } from '../src/serve/evidence-keys.js';
import { startReferenceServer } from '../src/serve/reference-server.js';
import { ROOT } from './run-bin.js';

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});
const dataDir = async (): Promise<string> => {
  const directory = await mkdtemp(join(tmpdir(), 'programrun-evidence-keys-'));
  directories.push(directory);
  return directory;
};
const reason = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

describe('the reference server’s evidence keys', () => {
  it('keeps a key per environment in the data directory, 0600, and reuses them', async () => {
    const directory = await dataDir();
    const first = await referenceEvidenceKeys({}, directory);
    expect(first.sources.test).toEqual({
      kid: first.keys.test.signer.kid,
      source: 'kept',
      variable: null,
      file: join(directory, 'evidence-key.test.jwk'),
    });
    expect(first.sources.live.file).toBe(join(directory, 'evidence-key.live.jwk'));
    expect(first.sources.test.kid).not.toBe(first.sources.live.kid);
    for (const name of ['evidence-key.test.jwk', 'evidence-key.live.jwk'])
      expect((await stat(join(directory, name))).mode & 0o777).toBe(0o600);
    const again = await referenceEvidenceKeys({}, directory);
    expect([again.sources.test.kid, again.sources.live.kid]).toEqual([
      first.sources.test.kid,
      first.sources.live.kid,
    ]);
  });

  it('adopts the former single kept key as the test key', async () => {
    const directory = await dataDir();
    const former = generateEd25519Jwk();
    await writeFile(join(directory, 'evidence-key.jwk'), `${JSON.stringify(former)}\n`);
    const keys = await referenceEvidenceKeys({}, directory);
    expect(keys.sources.test.kid).toBe(jwkThumbprint(former));
    expect(keys.sources.live.kid).not.toBe(jwkThumbprint(former));
    expect(await readFile(join(directory, 'evidence-key.test.jwk'), 'utf8')).toContain(former.d);
  });

  it('takes each key from its variable, PROGRAMRUN_EVIDENCE_KEY being the test key', async () => {
    const test = generateEd25519Jwk();
    const live = generateEd25519Jwk();
    const configured = await referenceEvidenceKeys(
      {
        PROGRAMRUN_EVIDENCE_KEY_TEST: JSON.stringify(test),
        PROGRAMRUN_EVIDENCE_KEY_LIVE: JSON.stringify(live),
      },
      await dataDir(),
    );
    expect(configured.sources).toEqual({
      test: {
        kid: test.kid,
        source: 'configured',
        variable: 'PROGRAMRUN_EVIDENCE_KEY_TEST',
        file: null,
      },
      live: {
        kid: live.kid,
        source: 'configured',
        variable: 'PROGRAMRUN_EVIDENCE_KEY_LIVE',
        file: null,
      },
    });
    const former = await referenceEvidenceKeys(
      { PROGRAMRUN_EVIDENCE_KEY: JSON.stringify(test) },
      null,
    );
    expect(former.sources.test).toMatchObject({
      kid: test.kid,
      variable: 'PROGRAMRUN_EVIDENCE_KEY',
    });
    expect(former.sources.live).toMatchObject({ source: 'process', variable: null, file: null });
  });

  it('refuses the same key for both environments, both test variables, and a broken key', async () => {
    const key = JSON.stringify(generateEd25519Jwk());
    expect(
      await reason(
        referenceEvidenceKeys(
          { PROGRAMRUN_EVIDENCE_KEY_TEST: key, PROGRAMRUN_EVIDENCE_KEY_LIVE: key },
          null,
        ),
      ),
    ).toMatch(
      /^the test and live evidence keys are the same key \(\S+\): give each environment its own/,
    );
    expect(
      await reason(
        referenceEvidenceKeys(
          { PROGRAMRUN_EVIDENCE_KEY: key, PROGRAMRUN_EVIDENCE_KEY_TEST: key },
          null,
        ),
      ),
    ).toBe(
      'PROGRAMRUN_EVIDENCE_KEY is the former name of PROGRAMRUN_EVIDENCE_KEY_TEST: set only PROGRAMRUN_EVIDENCE_KEY_TEST',
    );
    expect(
      await reason(referenceEvidenceKeys({ PROGRAMRUN_EVIDENCE_KEY_LIVE: '{"kty":' }, null)),
    ).toBe('PROGRAMRUN_EVIDENCE_KEY_LIVE must be a private Ed25519 JWK (JSON with kty, crv, x, d)');
    const directory = await dataDir();
    await writeFile(join(directory, 'evidence-key.live.jwk'), '{"kty":"OKP","crv":"Ed25519"}');
    expect(await reason(referenceEvidenceKeys({}, directory))).toMatch(/evidence-key\.live\.jwk: /);
  });
});

describe('the reference server signs each environment with its own key', () => {
  it('publishes both keys marked, and its test evidence fails verification pinned to live', async () => {
    const test = generateEd25519Jwk();
    const live = generateEd25519Jwk();
    const server = await startReferenceServer({
      port: 0,
      host: '127.0.0.1',
      scenarioDirectory: join(ROOT, 'scenarios'),
      environment: {
        PROGRAMRUN_STORE: 'memory',
        PROGRAMRUN_EVIDENCE_KEY_TEST: JSON.stringify(test),
        PROGRAMRUN_EVIDENCE_KEY_LIVE: JSON.stringify(live),
      },
    });
    try {
      expect(serverBanner(server, '127.0.0.1')).toEqual(
        expect.arrayContaining([
          `  test evidence is signed by ${test.kid}, from PROGRAMRUN_EVIDENCE_KEY_TEST`,
          `  live evidence is signed by ${live.kid}, from PROGRAMRUN_EVIDENCE_KEY_LIVE`,
        ]),
      );
      const jwks = (await (await fetch(`${server.url}/v1/evidence-keys`)).json()) as Jwks;
      expect(jwks.keys.map((key) => [key.kid, key.environment])).toEqual([
        [test.kid, 'test'],
        [live.kid, 'live'],
      ]);

      const call = (path: string, body?: unknown) =>
        fetch(`${server.url}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: {
            authorization: `Bearer ${server.testKey}`,
            'content-type': 'application/json',
            'idempotency-key': crypto.randomUUID(),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const example = server.scenarios.find((scenario) => scenario.id === 'wallet-delivery@v1')!;
      const run = (await (
        await call('/v1/program-runs', {
          scenario_id: example.id,
          session_id: 'sess_reference',
          inputs: example.definition.example_inputs,
        })
      ).json()) as { id: string };
      await call('/v1/access-requests', {
        session_id: 'sess_reference',
        name: 'Ana',
        email: 'ana@example.com',
        company: 'Example',
        use_case: 'Audit',
      });
      const exported = await call(`/v1/program-runs/${run.id}/evidence`);
      expect(exported.status).toBe(200);
      const directory = await dataDir();
      const bundle = join(directory, 'bundle.json');
      await writeFile(bundle, await exported.text());

      const verify = async (...args: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runCli(['verify', bundle, ...args], {
          out: (line) => out.push(line),
          err: (line) => err.push(line),
        });
        return { code, out: out.join('\n'), err: err.join('\n') };
      };
      const keysUrl = `${server.url}/v1/evidence-keys`;
      const verified = await verify('--jwks', keysUrl, '--env', 'test', '--run', run.id);
      expect(verified.code).toBe(0);
      expect(verified.out).toContain(`✓ key        Ed25519 key ${test.kid} (test evidence)`);
      expect(await verify('--jwks', keysUrl, '--env', 'live')).toEqual({
        code: 1,
        out: '',
        err: 'verification failed at expected: environment test, expected live',
      });
      expect(await verify('--jwks', `${keysUrl}?environment=live`)).toEqual({
        code: 1,
        out: '',
        err: `verification failed at key: no key ${test.kid} in the JWKS`,
      });
    } finally {
      await server.close();
    }
  });
});
