import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createAccounts,
  createEngine,
  createMemoryStore,
  parseApiKey,
  type StoreV1,
} from '@programrun/engine';
import { runCli, type StoreOpener } from '../src/index.js';

const SCENARIOS = fileURLToPath(new URL('../../../scenarios/', import.meta.url));

/** A store that outlives each command, as a durable store does. */
function sharedStore(): { store: StoreV1; openStore: StoreOpener } {
  const store = createMemoryStore();
  return {
    store,
    openStore: () => Promise.resolve({ store, durable: true, close: () => Promise.resolve() }),
  };
}

async function cli(
  argv: string[],
  openStore?: StoreOpener,
  environment: Record<string, string> = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    { ...(openStore ? { openStore } : {}), environment },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('programrun keys', () => {
  it('creates a key shown once, lists it redacted, and revokes it', async () => {
    const { store, openStore } = sharedStore();
    const created = await cli(
      ['keys', 'create', '--account', 'acct_demo', '--env', 'live', '--description', 'ci'],
      openStore,
    );
    expect(created.code).toBe(0);
    const secret = created.out.split('\n')[1]!;
    expect(parseApiKey(secret)?.environment).toBe('live');
    expect(created.out).toContain('shown only this once');

    const listed = await cli(['keys', 'list', '--account', 'acct_demo'], openStore);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`pr_live_…${secret.slice(-4)}`);
    expect(listed.out).not.toContain(secret.slice(8, 40));
    expect(listed.out).toContain('active');

    // The key works against accounts on the same store, until revoked (these read the
    // store on every request: caching ones would refuse it within apiKeyCacheMs).
    const accounts = createAccounts({ store, apiKeyCacheMs: 0 });
    const keyId = (await accounts.apiKeys.authenticate(secret))!.keyId;
    const revoked = await cli(['keys', 'revoke', '--account', 'acct_demo', keyId], openStore);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toContain(`Revoked ${keyId}`);
    expect(await accounts.apiKeys.authenticate(secret)).toBeNull();

    const json = await cli(['keys', 'list', '--account', 'acct_demo', '--json'], openStore);
    expect(JSON.parse(json.out)).toMatchObject({
      object: 'list',
      data: [{ id: keyId, status: 'revoked' }],
    });
  });

  it('exits 1 with one line for refusals and 2 for usage problems', async () => {
    const { openStore } = sharedStore();
    const unknown = await cli(['keys', 'revoke', '--account', 'acct_demo', 'key_nope'], openStore);
    expect(unknown).toMatchObject({ code: 1, out: '' });
    expect(unknown.err).toMatch(/^programrun keys: api_key_not_found: No API key key_nope/);
    expect(unknown.err.split('\n')).toHaveLength(1);
    for (const argv of [
      ['keys', 'create', '--env', 'test'],
      ['keys', 'create', '--account', 'acct_demo', '--env', 'staging'],
      ['keys', 'create', '--account', 'acct_demo', '--env', 'test', '--colour', 'red'],
      ['keys', 'rotate', '--account', 'acct_demo'],
      ['keys', 'revoke', '--account', 'acct_demo'],
    ]) {
      const result = await cli(argv, openStore);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err, argv.join(' ')).toMatch(/^programrun keys: /);
    }
    const badAccount = await cli(['keys', 'create', '--account', ' ', '--env', 'test'], openStore);
    expect(badAccount).toMatchObject({ code: 1 });
    expect(badAccount.err).toContain('invalid_account');
  });

  it('creates a scoped key for an actor, and refuses a bad scope or actor with one line', async () => {
    const { store, openStore } = sharedStore();
    const created = await cli(
      [
        'keys',
        'create',
        '--account',
        'acct_demo',
        '--env',
        'live',
        '--actor',
        'partner:payout_bank',
        '--scope',
        'runs:read',
        '--scope',
        'handoffs:answer:payout_bank',
      ],
      openStore,
    );
    expect(created.code).toBe(0);
    expect(created.out.split('\n')[0]).toMatch(
      /^Created key_\S+ for acct_demo \(live\), actor partner:payout_bank, scopes runs:read handoffs:answer:payout_bank:$/,
    );
    const secret = created.out.split('\n')[1]!;
    const principal = await createAccounts({ store, apiKeyCacheMs: 0 }).apiKeys.authenticate(
      secret,
    );
    expect(principal).toMatchObject({
      actor: 'partner:payout_bank',
      scopes: ['runs:read', 'handoffs:answer:payout_bank'],
    });
    const listed = await cli(['keys', 'list', '--account', 'acct_demo'], openStore);
    expect(listed.out).toContain('partner:payout_bank runs:read,handoffs:answer:payout_bank');
    const json = await cli(['keys', 'list', '--account', 'acct_demo', '--json'], openStore);
    expect(JSON.parse(json.out)).toMatchObject({
      data: [
        { actor: 'partner:payout_bank', scopes: ['runs:read', 'handoffs:answer:payout_bank'] },
      ],
    });

    const base = ['keys', 'create', '--account', 'acct_demo', '--env', 'test'];
    for (const extra of [
      ['--scope', 'runs:delete'],
      ['--scope', 'runs:read:payout_bank'],
      ['--scope', 'handoffs:answer:Payout Bank'],
      ['--actor', ' ops:alice'],
    ]) {
      const refused = await cli([...base, ...extra], openStore);
      expect(refused.code, extra.join(' ')).toBe(2);
      expect(refused.out).toBe('');
      expect(refused.err.split('\n'), extra.join(' ')).toHaveLength(1);
      expect(refused.err).toMatch(/^programrun keys: --(scope|actor): /);
    }
    const scope = await cli([...base, '--scope', 'runs:delete'], openStore);
    expect(scope.err).toContain('unknown scope "runs:delete"');
    // Nothing was created by the refusals.
    expect(
      JSON.parse((await cli(['keys', 'list', '--account', 'acct_demo', '--json'], openStore)).out)
        .data,
    ).toHaveLength(1);
  });

  it('on the memory store, creates a key with a note and refuses list and revoke', async () => {
    const created = await cli(['keys', 'create', '--account', 'acct_demo', '--env', 'test']);
    expect(created.code).toBe(0);
    expect(parseApiKey(created.out.split('\n')[1]!)?.environment).toBe('test');
    expect(created.err).toMatch(/^note: PROGRAMRUN_STORE=memory keeps nothing/);
    const listed = await cli(['keys', 'list', '--account', 'acct_demo']);
    expect(listed.code).toBe(2);
    expect(listed.err).toMatch(/needs a durable store/);
    const elsewhere = await cli(['keys', 'list', '--account', 'acct_demo'], undefined, {
      PROGRAMRUN_STORE: 'redis',
    });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.err).toBe(
      'programrun keys: PROGRAMRUN_STORE must be one of memory, embedded, pglite, postgres, not "redis"',
    );
  });

  it('on PGlite, keeps keys between commands in PROGRAMRUN_DATA_DIR', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'programrun-cli-'));
    const environment = { PROGRAMRUN_STORE: 'pglite', PROGRAMRUN_DATA_DIR: dataDir };
    try {
      const created = await cli(
        ['keys', 'create', '--account', 'acct_demo', '--env', 'test'],
        undefined,
        environment,
      );
      expect(created.code).toBe(0);
      expect(created.err).toBe('');
      const listed = await cli(['keys', 'list', '--account', 'acct_demo'], undefined, environment);
      expect(listed.code).toBe(0);
      expect(listed.out).toContain(created.out.split('\n')[1]!.slice(-4));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('runs as the programrun binary', async () => {
    const run = promisify(execFile);
    const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
    const result = await run(process.execPath, [
      '--conditions=@programrun/source',
      '--import',
      'tsx',
      bin,
      'keys',
      'create',
      '--account',
      'acct_demo',
      '--env',
      'test',
      '--json',
    ]);
    const created = JSON.parse(result.stdout) as { secret: string; api_key: { redacted: string } };
    expect(parseApiKey(created.secret)?.environment).toBe('test');
    expect(created.api_key.redacted).toBe(`pr_test_…${created.secret.slice(-4)}`);
    const failed = await run(process.execPath, [
      '--conditions=@programrun/source',
      '--import',
      'tsx',
      bin,
      'keys',
      'list',
    ]).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(failed).toEqual({ code: 2, stderr: 'programrun keys: --account is required\n' });
  });
});

describe('programrun activations', () => {
  it('activates a restricted scenario and starts the account’s suspended live runs', async () => {
    const { store, openStore } = sharedStore();
    const engine = createEngine({ store, scenarios: await loadCatalogue(SCENARIOS) });
    const reserve = engine.scenarios.get('reserve-usd-cycle@v1');
    const scope = { account: 'acct_demo', environment: 'live' } as const;
    const { run } = await engine.createRun(scope, {
      scenario_id: reserve.id,
      inputs: reserve.definition.example_inputs,
    });
    expect(run.status).toBe('suspended');

    const activated = await cli(
      [
        'activations',
        'activate',
        '--account',
        'acct_demo',
        '--scenario',
        'reserve-usd-cycle',
        '--reference',
        'ISS-2026-0042',
        '--scenarios',
        SCENARIOS,
      ],
      openStore,
    );
    expect(activated).toMatchObject({ code: 0, err: '' });
    expect(activated.out).toContain(
      'Activated reserve-usd-cycle for acct_demo (reference ISS-2026-0042).',
    );
    expect(activated.out).toContain(`Started 1 suspended run(s): ${run.id}`);
    expect((await engine.getRun(scope, run.id)).status).not.toBe('suspended');

    const listed = await cli(['activations', 'list', '--account', 'acct_demo'], openStore);
    expect(listed.out).toMatch(/^reserve-usd-cycle\s+active\s+ISS-2026-0042/);

    const revoked = await cli(
      [
        'activations',
        'revoke',
        '--account',
        'acct_demo',
        '--scenario',
        'reserve-usd-cycle',
        '--scenarios',
        SCENARIOS,
      ],
      openStore,
    );
    expect(revoked.code).toBe(0);
    expect((await engine.activations.list('acct_demo'))[0]?.status).toBe('revoked');
  });

  it('explains refusals on one line', async () => {
    const { openStore } = sharedStore();
    const notRestricted = await cli(
      [
        'activations',
        'activate',
        '--account',
        'a',
        '--scenario',
        'wallet-delivery',
        '--reference',
        'x',
        '--scenarios',
        SCENARIOS,
      ],
      openStore,
    );
    expect(notRestricted.code).toBe(1);
    expect(notRestricted.err).toMatch(
      /^programrun activations: scenario_not_restricted: wallet-delivery is on the public_demo track/,
    );
    const noDirectory = await cli(
      [
        'activations',
        'activate',
        '--account',
        'a',
        '--scenario',
        'x',
        '--reference',
        'x',
        '--scenarios',
        '/nonexistent',
      ],
      openStore,
    );
    expect(noDirectory.code).toBe(2);
    const memory = await cli(['activations', 'list', '--account', 'a']);
    expect(memory.code).toBe(2);
    expect(memory.err).toContain('needs the durable store your server uses');
  });
});
