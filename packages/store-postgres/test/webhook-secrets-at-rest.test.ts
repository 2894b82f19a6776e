// Webhook signing secrets encrypted at rest (issue 15): with `webhooks.secretKeys`, the
// SQL tables (and so the WAL and the data directory) hold only sealed secrets, and the
// real dispatcher still signs every delivery so the `standardwebhooks` package verifies it.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, webhookSecretKeyId, type Scope } from '@programrun/engine';
import { createWebhookDispatcher } from '@programrun/webhooks';
import { createPGliteStore, createPostgresStore } from '../src/index.js';
import { startReceiver } from '../../webhooks/test/receiver.js';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from './support/test-database.js';

const scenarios = await loadCatalogue(
  fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
);
const wallet = scenarios.find((scenario) => scenario.id === 'wallet-delivery@v1')!;
const scope: Scope = { account: 'acct_at_rest', environment: 'test' };
const KEY = Buffer.alloc(32, 42).toString('base64');

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Every file under `directory` (recursively). */
async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The files of `directory` whose bytes contain `text`. */
async function filesContaining(directory: string, text: string): Promise<string[]> {
  const needle = Buffer.from(text);
  const found: string[] = [];
  for (const file of await filesUnder(directory)) {
    if ((await readFile(file)).includes(needle)) found.push(file);
  }
  return found;
}

describe('webhook secrets at rest in SQL stores', () => {
  it('keeps only sealed secrets in the PostgreSQL table, and deliveries verify', async () => {
    const schema = freshSchema();
    const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema });
    cleanup.push(
      () => dropSchema(schema),
      () => store.close(),
    );
    const engine = createEngine({
      store,
      scenarios,
      webhooks: { allowLoopback: true, secretKeys: [KEY] },
    });
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const endpoint = await engine.webhooks.createEndpoint(scope, { url: receiver.url });
    await engine.webhooks
      .rotateSecret(scope, endpoint.id, { overlap_seconds: 3600 })
      .then((rotated) => (receiver.secrets = [rotated.secret]));

    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    cleanup.push(() => client.end());
    const { rows } = await client.query<{ secrets: { secret: string }[]; whole: string }>(
      `SELECT secrets, row_to_json(e)::text AS whole FROM "${schema}".webhook_endpoints e`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.secrets).toHaveLength(2);
    for (const secret of rows[0]!.secrets)
      expect(secret.secret).toMatch(new RegExp(`^sealed:v1:${webhookSecretKeyId(KEY)}:`));
    expect(rows[0]!.whole).not.toContain(endpoint.secret.slice('whsec_'.length));
    expect(rows[0]!.whole).not.toContain(receiver.secrets[0]!.slice('whsec_'.length));

    await engine.createRun(scope, {
      scenario_id: wallet.id,
      inputs: wallet.definition.example_inputs,
      idempotency_key: 'at-rest',
    });
    const dispatcher = createWebhookDispatcher(engine, { timeoutMs: 2_000 });
    cleanup.push(() => dispatcher.stop());
    expect(await dispatcher.drain()).toBeGreaterThan(0);
    expect(receiver.rejected).toEqual([]);
    expect(receiver.received.length).toBeGreaterThan(0);
    // Both secrets sign during the rotation overlap: the first one verifies too.
    receiver.secrets = [endpoint.secret];
    await engine.webhooks.redeliver(scope, receiver.received[0]!.id);
    await dispatcher.drain();
    expect(receiver.rejected).toEqual([]);
  });

  it('leaves no readable secret in a PGlite data directory (tables and WAL)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'programrun-at-rest-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const store = await createPGliteStore({ dataDir });
    const url = (path: string) => `https://hooks.example.com/${path}`;
    // Without a key, the finding: the secret reaches the disk in clear (which also shows
    // the search below finds what is there).
    const readable = await createEngine({ store, scenarios }).webhooks.createEndpoint(scope, {
      url: url('readable'),
    });
    const sealing = createEngine({ store, scenarios, webhooks: { secretKeys: [KEY] } });
    const sealed = await sealing.webhooks.createEndpoint(scope, { url: url('sealed') });
    const rotated = await sealing.webhooks.rotateSecret(scope, sealed.id);
    await store.close();
    const onDisk = (secret: string) => filesContaining(dataDir, secret.slice('whsec_'.length));
    expect((await onDisk(readable.secret)).length).toBeGreaterThan(0);
    expect(await onDisk(sealed.secret)).toEqual([]);
    expect(await onDisk(rotated.secret)).toEqual([]);
  });
});
