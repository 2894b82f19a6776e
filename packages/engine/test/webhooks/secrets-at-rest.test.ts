import { beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  signatureHeader,
  webhookSecretKeyId,
  WebhookSecretKeyError,
  type Engine,
  type Scope,
  type StoreV1,
} from '../../src/index.js';
import { catalogueScenarios, WALLET_INPUTS } from '../scenarios.js';

/** Awaits `promise` and expects a WebhookSecretKeyError (`webhook_secret_key_missing`). */
async function expectSecretKeyError(promise: Promise<unknown>): Promise<WebhookSecretKeyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookSecretKeyError);
  expect((error as WebhookSecretKeyError).code).toBe('webhook_secret_key_missing');
  return error as WebhookSecretKeyError;
}

const scope: Scope = { account: 'acct_sealed', environment: 'test' };
const OLD = Buffer.alloc(32, 7).toString('base64');
const NEW = Buffer.alloc(32, 9).toString('base64');

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await catalogueScenarios();
});

const engineOver = (store: StoreV1, secretKeys?: string[]): Engine =>
  createEngine({ store, scenarios, webhooks: secretKeys ? { secretKeys } : {} });

/** The stored secrets of an endpoint, as the store keeps them. */
const storedSecrets = async (store: StoreV1, id: string): Promise<string[]> =>
  (await store.transaction((tx) => tx.getWebhookEndpoint(scope, id)))!.secrets.map(
    (secret) => secret.secret,
  );

let runs = 0;
/** Queues one run's events, claims the deliveries of `endpoint`, and signs each as sent. */
async function signedDeliveries(engine: Engine, endpoint: string) {
  await engine.createRun(scope, {
    scenario_id: 'wallet-delivery@v1',
    inputs: WALLET_INPUTS,
    idempotency_key: `sealed-${(runs += 1)}`,
  });
  const now = new Date();
  const claimed = await engine.webhooks.deliveries.claim(
    'test',
    100,
    now,
    new Date(now.getTime() + 60_000),
  );
  const signed = [];
  for (const delivery of claimed.filter((row) => row.endpoint_id === endpoint)) {
    const prepared = (await engine.webhooks.deliveries.prepare(delivery))!;
    const timestamp = Math.floor(Date.now() / 1000);
    signed.push({
      body: prepared.body,
      headers: {
        'webhook-id': delivery.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(
          prepared.secrets,
          delivery.event_id,
          timestamp,
          prepared.body,
        ),
      },
    });
  }
  expect(signed.length).toBeGreaterThan(0);
  return signed;
}

/** Every delivery verifies with the `standardwebhooks` package under `secret`. */
const verifiesWith = (
  deliveries: Awaited<ReturnType<typeof signedDeliveries>>,
  secret: string,
): boolean =>
  deliveries.every(({ body, headers }) => {
    try {
      new Webhook(secret).verify(body, headers);
      return true;
    } catch {
      return false;
    }
  });

describe('webhook signing secrets encrypted at rest', () => {
  it('stores only sealed secrets when a key is configured, and still signs correctly', async () => {
    const store = createMemoryStore();
    const engine = engineOver(store, [NEW]);
    const endpoint = await engine.webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/sealed',
    });
    const [stored] = await storedSecrets(store, endpoint.id);
    expect(stored).toMatch(new RegExp(`^sealed:v1:${webhookSecretKeyId(NEW)}:`));
    const row = await store.transaction((tx) => tx.getWebhookEndpoint(scope, endpoint.id));
    expect(JSON.stringify(row)).not.toContain(endpoint.secret.slice('whsec_'.length));
    // The API still shows the secret's last four characters.
    expect((await engine.webhooks.getEndpoint(scope, endpoint.id)).secrets[0]!.last4).toBe(
      endpoint.secret.slice(-4),
    );
    expect(verifiesWith(await signedDeliveries(engine, endpoint.id), endpoint.secret)).toBe(true);

    // A rotation seals the new secret too; both sign during the overlap.
    const rotated = await engine.webhooks.rotateSecret(scope, endpoint.id);
    const both = await storedSecrets(store, endpoint.id);
    expect(both).toHaveLength(2);
    expect(both.every((secret) => secret.startsWith('sealed:v1:'))).toBe(true);
    const deliveries = await signedDeliveries(engine, endpoint.id);
    expect(verifiesWith(deliveries, rotated.secret)).toBe(true);
    expect(verifiesWith(deliveries, endpoint.secret)).toBe(true);
  });

  it('keeps readable secrets working, seals them on the next write or by resealSecrets', async () => {
    const store = createMemoryStore();
    const before = engineOver(store);
    const touched = await before.webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/one',
    });
    const untouched = await before.webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/two',
    });
    expect(await storedSecrets(store, touched.id)).toEqual([touched.secret]);

    const engine = engineOver(store, [NEW]);
    expect(verifiesWith(await signedDeliveries(engine, touched.id), touched.secret)).toBe(true);
    await engine.webhooks.updateEndpoint(scope, touched.id, { description: 'any write' });
    expect((await storedSecrets(store, touched.id))[0]).toMatch(/^sealed:v1:/);
    expect(await storedSecrets(store, untouched.id)).toEqual([untouched.secret]);

    expect(await engine.webhooks.resealSecrets()).toEqual({
      endpoints: 2,
      resealed: 1,
      unopenable: [],
    });
    expect((await storedSecrets(store, untouched.id))[0]).toMatch(/^sealed:v1:/);
    expect(await engine.webhooks.resealSecrets()).toEqual({
      endpoints: 2,
      resealed: 0,
      unopenable: [],
    });
    expect(verifiesWith(await signedDeliveries(engine, untouched.id), untouched.secret)).toBe(true);
    // A host that drops the key cannot sign with sealed secrets, and says why.
    const keyless = engineOver(store);
    await keyless.createRun(scope, {
      scenario_id: 'wallet-delivery@v1',
      inputs: WALLET_INPUTS,
      idempotency_key: 'keyless',
    });
    const now = new Date();
    const [delivery] = await keyless.webhooks.deliveries.claim(
      'test',
      1,
      now,
      new Date(+now + 1e4),
    );
    await expectSecretKeyError(keyless.webhooks.deliveries.prepare(delivery!));
  });

  it('rotates the key: the new one seals, the old one opens until resealed', async () => {
    const store = createMemoryStore();
    const endpoint = await engineOver(store, [OLD]).webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/rotating',
    });
    const rotating = engineOver(store, [NEW, OLD]);
    expect(verifiesWith(await signedDeliveries(rotating, endpoint.id), endpoint.secret)).toBe(true);
    // Without the old key the endpoint's secret cannot be sealed again: reported, kept.
    expect(await engineOver(store, [NEW]).webhooks.resealSecrets()).toEqual({
      endpoints: 1,
      resealed: 0,
      unopenable: [endpoint.id],
    });
    expect(await rotating.webhooks.resealSecrets()).toMatchObject({ resealed: 1 });
    expect((await storedSecrets(store, endpoint.id))[0]).toMatch(
      new RegExp(`^sealed:v1:${webhookSecretKeyId(NEW)}:`),
    );
    const newOnly = engineOver(store, [NEW]);
    expect(verifiesWith(await signedDeliveries(newOnly, endpoint.id), endpoint.secret)).toBe(true);
  });

  it('refuses a key that is not 32 bytes of base64 when the engine is created', () => {
    expect(() => engineOver(createMemoryStore(), ['c2hvcnQ='])).toThrow(/32 bytes/);
  });
});
