import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createEngine,
  createMemoryStore,
  webhookSecretKeyId,
  type Scope,
  type StoreV1,
} from '@programrun/engine';
import { runCli, type StoreOpener } from '../src/index.js';
import { serverBanner } from '../src/serve/banner.js';
import { startReferenceServer } from '../src/serve/reference-server.js';
import { referenceWebhookSecretKeys } from '../src/serve/webhook-secret-keys.js';
import { ROOT } from './run-bin.js';

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});
const dataDir = async (): Promise<string> => {
  const directory = await mkdtemp(join(tmpdir(), 'programrun-webhook-keys-'));
  directories.push(directory);
  return directory;
};
const reason = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

const OLD = Buffer.alloc(32, 3).toString('base64');
const NEW = Buffer.alloc(32, 4).toString('base64');
const scope: Scope = { account: 'acct_demo', environment: 'test' };

describe('the reference server’s webhook secret key', () => {
  it('keeps a generated key in the data directory, 0600, and reuses it', async () => {
    const directory = await dataDir();
    const options = { create: true, processKey: false };
    const first = await referenceWebhookSecretKeys({}, directory, options);
    const file = join(directory, 'webhook-secret-key');
    expect(first.source).toEqual({ kid: webhookSecretKeyId(first.keys[0]!), source: 'kept', file });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await referenceWebhookSecretKeys({}, directory, options)).keys).toEqual(first.keys);
  });

  it('takes keys from PROGRAMRUN_SECRET_KEY (newest first), and refuses bad ones', async () => {
    const configured = await referenceWebhookSecretKeys(
      { PROGRAMRUN_SECRET_KEY: `${NEW}, ${OLD}` },
      await dataDir(),
      { create: true, processKey: false },
    );
    expect(configured).toEqual({
      keys: [NEW, OLD],
      source: { kid: webhookSecretKeyId(NEW), source: 'configured', file: null },
    });
    expect(
      await reason(
        referenceWebhookSecretKeys({ PROGRAMRUN_SECRET_KEY: 'c2hvcnQ=' }, null, {
          create: false,
          processKey: false,
        }),
      ),
    ).toMatch(/^PROGRAMRUN_SECRET_KEY: a webhook secret key is 32 bytes/);
  });

  it('makes a key for a memory store, and none for PostgreSQL without the variable', async () => {
    const memory = await referenceWebhookSecretKeys({}, null, { create: true, processKey: true });
    expect(memory.source.source).toBe('process');
    expect(memory.keys).toHaveLength(1);
    expect(await referenceWebhookSecretKeys({}, null, { create: true, processKey: false })).toEqual(
      { keys: [], source: { kid: null, source: 'none', file: null } },
    );
  });
});

describe('the reference server seals webhook secrets', () => {
  it('with PROGRAMRUN_SECRET_KEY, and says so in its banner', async () => {
    const server = await startReferenceServer({
      port: 0,
      host: '127.0.0.1',
      scenarioDirectory: join(ROOT, 'scenarios'),
      environment: { PROGRAMRUN_STORE: 'memory', PROGRAMRUN_SECRET_KEY: NEW },
    });
    try {
      expect(server.webhookSecrets).toEqual({
        kid: webhookSecretKeyId(NEW),
        source: 'configured',
        file: null,
      });
      expect(serverBanner(server, '127.0.0.1')).toContain(
        `  signing secrets are sealed at rest (AES-256-GCM) with key ${webhookSecretKeyId(NEW)}, from PROGRAMRUN_SECRET_KEY`,
      );
      const created = await fetch(`${server.url}/v1/webhook-endpoints`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.testKey}`,
          'content-type': 'application/json',
          'idempotency-key': 'reference-sealed',
        },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }),
      });
      expect(created.status).toBe(201);
      expect(((await created.json()) as { secret: string }).secret).toMatch(/^whsec_/);
    } finally {
      await server.close();
    }
  });
});

describe('programrun webhooks reseal-secrets', () => {
  /** A memory store that outlives each command, as a durable store does. */
  const sharedStore =
    (store: StoreV1, location: string | null = null): StoreOpener =>
    () =>
      Promise.resolve({
        store,
        durable: true,
        kind: location ? 'pglite' : 'postgres',
        location,
        close: () => Promise.resolve(),
      });
  const cli = async (argv: string[], openStore: StoreOpener, environment = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      { openStore, environment },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const storedSecret = async (store: StoreV1, id: string) =>
    (await store.transaction((tx) => tx.getWebhookEndpoint(scope, id)))!.secrets[0]!.secret;

  it('seals readable secrets and those of an older key with the newest key', async () => {
    const store = createMemoryStore();
    const readable = await createEngine({ store, scenarios: [] }).webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/a',
    });
    const old = await createEngine({
      store,
      scenarios: [],
      webhooks: { secretKeys: [OLD] },
    }).webhooks.createEndpoint(scope, { url: 'https://hooks.example.com/b' });

    const missingOld = await cli(['webhooks', 'reseal-secrets'], sharedStore(store), {
      PROGRAMRUN_SECRET_KEY: NEW,
    });
    expect(missingOld.code).toBe(1);
    expect(missingOld.out).toBe(
      `Sealed the secrets of 1 of 2 webhook endpoint(s) with key ${webhookSecretKeyId(NEW)}.`,
    );
    expect(missingOld.err).toContain(old.id);
    expect(await storedSecret(store, readable.id)).toMatch(`sealed:v1:${webhookSecretKeyId(NEW)}:`);

    const done = await cli(['webhooks', 'reseal-secrets', '--json'], sharedStore(store), {
      PROGRAMRUN_SECRET_KEY: `${NEW},${OLD}`,
    });
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toEqual({
      key: webhookSecretKeyId(NEW),
      endpoints: 2,
      resealed: 1,
      unopenable: [],
    });
    expect(await storedSecret(store, old.id)).toMatch(`sealed:v1:${webhookSecretKeyId(NEW)}:`);
  });

  it('uses the key kept in the data directory, and needs one and a durable store', async () => {
    const store = createMemoryStore();
    await createEngine({ store, scenarios: [] }).webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/a',
    });
    const directory = await dataDir();
    const none = await cli(['webhooks', 'reseal-secrets'], sharedStore(store, directory));
    expect(none.code).toBe(2);
    expect(none.err).toContain('set PROGRAMRUN_SECRET_KEY');
    await writeFile(join(directory, 'webhook-secret-key'), `${NEW}\n`, { mode: 0o600 });
    const kept = await cli(['webhooks', 'reseal-secrets'], sharedStore(store, directory));
    expect(kept).toMatchObject({ code: 0, err: '' });
    const memory = await cli(['webhooks', 'reseal-secrets'], () =>
      Promise.resolve({ store, durable: false, close: () => Promise.resolve() }),
    );
    expect(memory.code).toBe(2);
    expect((await cli(['webhooks', 'nope'], sharedStore(store))).code).toBe(2);
    expect((await cli(['webhooks', '--help'], sharedStore(store))).out).toContain('reseal-secrets');
  });
});
