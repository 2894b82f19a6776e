// Each environment signs its evidence with its own keys: the JWKS marks which key is whose,
// can be narrowed to one environment, and a test bundle never passes for live evidence.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createAccounts,
  createEngine,
  createMemoryStore,
  createVirtualClock,
  type EvidenceKeysOption,
} from '@programrun/engine';
import { createKeySet, generateEd25519Jwk, verifyEvidence, type Jwks } from '@programrun/evidence';
import { createHandler, type Handler } from '../src/index.js';
import { LIVE_KEY, TEST_KEY } from './harness.js';
import { checkResponseAgainstOpenApi } from './openapi-conformance.js';

const testKeys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
const liveKeys = createKeySet([{ key: generateEd25519Jwk(), status: 'active' }]);
const inputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

async function handlerWith(keys: EvidenceKeysOption): Promise<Handler> {
  const store = createMemoryStore();
  const engine = createEngine({
    store,
    scenarios: await loadCatalogue(fileURLToPath(new URL('../../../scenarios/', import.meta.url))),
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
    evidence: { keys },
  });
  const accounts = createAccounts({ store });
  await accounts.apiKeys.create({ account: 'acct_one', environment: 'test', secret: TEST_KEY });
  await accounts.apiKeys.create({ account: 'acct_one', environment: 'live', secret: LIVE_KEY });
  return createHandler({ engine, accounts });
}

/** Calls the handler in process and checks the answer against the OpenAPI document. */
async function call(
  handler: Handler,
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown } = {},
): Promise<{ status: number; text: string }> {
  const key = options.key === undefined ? TEST_KEY : options.key;
  const response = await handler.handle(
    new Request(`http://programrun.test${path}`, {
      method,
      headers: {
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        ...(method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    }),
  );
  const text = await response.text();
  expect(
    checkResponseAgainstOpenApi(method, path, {
      status: response.status,
      headers: response.headers,
      bodyText: text,
    }),
  ).toEqual([]);
  return { status: response.status, text };
}

/** A run in the key's environment, with a lead linked, and its exported evidence. */
async function exportedRun(handler: Handler, key: string, session: string) {
  const created = await call(handler, 'POST', '/v1/program-runs', {
    key,
    body: { scenario_id: 'wallet-delivery@v1', inputs, session_id: session },
  });
  expect(created.status).toBe(201);
  const run = JSON.parse(created.text) as { id: string };
  await call(handler, 'POST', '/v1/access-requests', {
    key,
    body: {
      session_id: session,
      name: 'Ana Lima',
      email: 'ana@example.com',
      company: 'Example Pay',
      use_case: 'Audit',
    },
  });
  return {
    id: run.id,
    evidence: await call(handler, 'GET', `/v1/program-runs/${run.id}/evidence`, { key }),
  };
}

const jwksOf = async (handler: Handler, query = ''): Promise<Jwks> => {
  const answer = await call(handler, 'GET', `/v1/evidence-keys${query}`, { key: null });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.text) as Jwks;
};

describe('evidence keys per environment, over HTTP', () => {
  let handler: Handler;
  beforeAll(async () => {
    handler = await handlerWith({ test: testKeys, live: liveKeys });
  });

  it('publishes each key with the environment it signs, and narrows to one on request', async () => {
    const all = await jwksOf(handler);
    expect(all.keys.map((key) => [key.kid, key.environment])).toEqual([
      [testKeys.signer.kid, 'test'],
      [liveKeys.signer.kid, 'live'],
    ]);
    expect((await jwksOf(handler, '?environment=test')).keys.map((key) => key.kid)).toEqual([
      testKeys.signer.kid,
    ]);
    expect((await jwksOf(handler, '?environment=live')).keys.map((key) => key.kid)).toEqual([
      liveKeys.signer.kid,
    ]);
    const refused = await call(handler, 'GET', '/v1/evidence-keys?environment=prod', {
      key: null,
    });
    expect(refused.status).toBe(422);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'invalid_query' });
  });

  it('signs test and live evidence with different keys, and never lets one pass for the other', async () => {
    const all = await jwksOf(handler);
    const test = await exportedRun(handler, TEST_KEY, 'sess_test');
    const live = await exportedRun(handler, LIVE_KEY, 'sess_live');
    expect([test.evidence.status, live.evidence.status]).toEqual([200, 200]);
    expect(JSON.parse(test.evidence.text)).toMatchObject({
      signatures: [{ keyid: testKeys.signer.kid }],
    });
    expect(JSON.parse(live.evidence.text)).toMatchObject({
      signatures: [{ keyid: liveKeys.signer.kid }],
    });

    const pinnedLive = verifyEvidence(live.evidence.text, all, {
      expect: { runId: live.id, environment: 'live' },
    });
    expect(pinnedLive.ok).toBe(true);
    expect(pinnedLive.bundle?.run).toMatchObject({ environment: 'live', livemode: true });

    // The test bundle is valid, but not live evidence.
    expect(verifyEvidence(test.evidence.text, all).ok).toBe(true);
    expect(
      verifyEvidence(test.evidence.text, all, { expect: { environment: 'live' } }).failure,
    ).toMatchObject({ name: 'expected', detail: 'environment test, expected live' });
    // The live bundle against the test keys only.
    expect(
      verifyEvidence(live.evidence.text, await jwksOf(handler, '?environment=test')).failure,
    ).toMatchObject({ name: 'key', detail: `no key ${liveKeys.signer.kid} in the JWKS` });
  });

  it('answers evidence_keys_missing for an environment without keys', async () => {
    const testOnly = await handlerWith({ test: testKeys });
    const live = await exportedRun(testOnly, LIVE_KEY, 'sess_nokeys');
    expect(live.evidence.status).toBe(503);
    expect(JSON.parse(live.evidence.text)).toMatchObject({ code: 'evidence_keys_missing' });
    const keys = await call(testOnly, 'GET', '/v1/evidence-keys?environment=live', { key: null });
    expect(keys.status).toBe(503);
    expect((await jwksOf(testOnly)).keys.map((key) => key.environment)).toEqual(['test']);
  });
});
