// Every documented operation, exercised over HTTP with its successes and the problems it
// documents; each response is checked against the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_SCOPES,
  createEngine,
  createMemoryStore,
  StoreError,
  type Engine,
  type StoreTransactionV1,
  type StoreV1,
} from '@programrun/engine';
import { canonicalDigest } from '@programrun/evidence';
import { createHandler, type Authenticate, type HandlerOptions } from '../src/index.js';
import { buildOpenApiDocument } from '../src/routes/all-routes.js';
import { OPENAPI_MEDIA_TYPE } from '../src/routes/openapi.js';
import {
  evidenceKeys,
  LIVE_KEY,
  OTHER_TEST_KEY,
  startTestServer,
  TEST_KEY,
  type TestServer,
} from './harness.js';
import { conformingClient, type RequestOptions } from './openapi-client.js';

const document = buildOpenApiDocument();
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, { operationId: string; responses: object }>).map(
    ([method, operation]) => ({ path, method: method.toUpperCase(), operation }),
  ),
);
let server: TestServer;
const client = conformingClient(() => server);
const { call, conforming, createRun, exampleInputs, expectCall, expectProblem, key } = client;

beforeAll(async () => {
  server = await startTestServer('handle');
});
afterAll(async () => {
  await server.close();
});

describe('GET /v1/openapi.json', () => {
  it('serves buildOpenApiDocument() without credentials', async () => {
    const answer = await expectCall(200, 'GET', '/v1/openapi.json', { key: null });
    expect(answer.headers.get('content-type')).toBe(OPENAPI_MEDIA_TYPE);
    expect(answer.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });
});

describe('GET /healthz and GET /readyz', () => {
  it('answer without credentials: alive, and ready with the checks', async () => {
    await expectCall(200, 'GET', '/healthz', { key: null });
    const ready = await expectCall(200, 'GET', '/readyz', { key: null });
    expect(ready.body).toMatchObject({ status: 'ready', checks: { store: { status: 'ok' } } });
  });

  it('answer 503 not_ready with the checks while a background worker is stopped', async () => {
    server.engine.background.started('openapi-test').stopped();
    const problem = await expectProblem(503, 'not_ready', 'GET', '/readyz', { key: null });
    expect(problem.body).toMatchObject({
      checks: { background: { status: 'stopped', workers: { 'openapi-test': 'stopped' } } },
    });
    server.engine.background.started('openapi-test');
    await expectCall(200, 'GET', '/readyz', { key: null });
  });

  it('answer 500 when the engine cannot tell its readiness', async () => {
    const handler = createHandler({
      engine: { ...server.engine, readiness: () => Promise.reject(new Error('boom')) },
      authenticate: () => null,
      onError: false,
    });
    const answer = await conforming(
      'GET',
      '/readyz',
      await handler.handle(new Request('http://localhost/readyz')),
    );
    expect(answer).toMatchObject({ status: 500, body: { code: 'internal_error' } });
  });
});

describe('scenarios', () => {
  it('lists and reads every scenario', async () => {
    const list = await expectCall(200, 'GET', '/v1/scenarios');
    for (const scenario of list.body.data as { id: string }[]) {
      await expectCall(200, 'GET', `/v1/scenarios/${scenario.id}`);
    }
    await expectProblem(404, 'scenario_not_found', 'GET', '/v1/scenarios/nope@v9');
    for (const scenario of list.body.data as { id: string }[])
      await expectCall(200, 'GET', `/v1/scenarios/${scenario.id}/versions`);
    await expectProblem(404, 'scenario_not_found', 'GET', '/v1/scenarios/nope/versions');
  });
});

describe('program runs', () => {
  it('creates, replays and reads runs of every scenario, and lets them run their course', async () => {
    const scenarios = (await call('GET', '/v1/scenarios')).body.data as { id: string }[];
    const ids: string[] = [];
    for (const scenario of scenarios) ids.push(await createRun(scenario.id));
    const idempotencyKey = key();
    const first = await expectCall(201, 'POST', '/v1/program-runs', {
      body: {
        scenario_id: 'wallet-delivery@v1',
        inputs: await exampleInputs('wallet-delivery@v1'),
      },
      headers: { 'idempotency-key': idempotencyKey },
    });
    const replay = await expectCall(201, 'POST', '/v1/program-runs', {
      body: {
        scenario_id: 'wallet-delivery@v1',
        inputs: await exampleInputs('wallet-delivery@v1'),
      },
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    // Ten days on: simulated partners answer, reviews and approvals expire, runs end.
    for (const seconds of [60, 3600, 864_000]) {
      await expectCall(200, 'POST', '/v1/test_helpers/clock/advance', { body: { seconds } });
      for (const id of ids) {
        await expectCall(200, 'GET', `/v1/program-runs/${id}`);
        await expectCall(200, 'GET', `/v1/program-runs/${id}/events?limit=1000`);
      }
    }
    const finished = await expectCall(200, 'GET', '/v1/program-runs?limit=100&status=faulted');
    expect((finished.body.data as unknown[]).length).toBeGreaterThan(0);
  });

  it('holds live runs of restricted scenarios suspended and refuses live placeholders', async () => {
    const id = await createRun('bridge-routing@v1', { key: LIVE_KEY });
    const run = await expectCall(200, 'GET', `/v1/program-runs/${id}`, { key: LIVE_KEY });
    expect(run.body).toMatchObject({
      status: 'suspended',
      posture: { activation: { required: true, status: 'pending' } },
    });
    await expectProblem(409, 'run_suspended', 'POST', `/v1/program-runs/${id}/approvals`, {
      key: LIVE_KEY,
      body: { step: 'treasury_approval', decision: 'approve', approver: 'ops:ana' },
    });
    await expectProblem(
      409,
      'run_suspended',
      'POST',
      `/v1/program-runs/${id}/handoffs/lock_source`,
      {
        key: LIVE_KEY,
        body: { outcome: 'confirmed', reference: 'r-1' },
      },
    );
    await expectCall(200, 'POST', `/v1/program-runs/${id}/cancel`, { key: LIVE_KEY });
    await expectProblem(422, 'track_not_available', 'POST', '/v1/program-runs', {
      key: LIVE_KEY,
      body: { scenario_id: 'bank-payout@v1', inputs: await exampleInputs('bank-payout@v1') },
      headers: { 'idempotency-key': key() },
    });
  });

  it('answers creation problems', async () => {
    const body = {
      scenario_id: 'wallet-delivery@v1',
      inputs: await exampleInputs('wallet-delivery@v1'),
    };
    const create = (headers: Record<string, string>, options: RequestOptions = { body }) =>
      call('POST', '/v1/program-runs', {
        ...options,
        headers: { ...options?.headers, ...headers },
      });
    expect((await create({})).body.code).toBe('idempotency_key_missing');
    expect((await create({ 'idempotency-key': 'not valid' })).body.code).toBe(
      'idempotency_key_invalid',
    );
    const reused = key();
    await create({ 'idempotency-key': reused });
    const other = { ...body, inputs: { ...body.inputs, amount: '1.00' } };
    expect((await create({ 'idempotency-key': reused }, { body: other })).body.code).toBe(
      'idempotency_key_reused',
    );
    expect(
      (await create({ 'idempotency-key': key() }, { body: { ...body, scenario_id: 'nope@v1' } }))
        .status,
    ).toBe(404);
    expect(
      (await create({ 'idempotency-key': key() }, { body: { ...body, inputs: {} } })).body.code,
    ).toBe('invalid_inputs');
    const raced = key();
    const race = await Promise.all(
      Array.from({ length: 8 }, () =>
        server.request('POST', '/v1/program-runs', { body, headers: { 'idempotency-key': raced } }),
      ),
    );
    for (const response of race) await conforming('POST', '/v1/program-runs', response);
  });

  it('lists runs and records with every filter, and refuses bad queries', async () => {
    const id = await createRun('wallet-delivery@v1');
    const query =
      'limit=2&status=waiting&scenario_id=wallet-delivery@v1&created[gte]=2026-01-01T00:00:00Z&created[lt]=2030-01-01T00:00:00Z';
    await expectCall(200, 'GET', `/v1/program-runs?${query}&starting_after=${id}`);
    await expectProblem(422, 'invalid_query', 'GET', '/v1/program-runs?limit=0');
    await expectProblem(422, 'invalid_query', 'GET', '/v1/program-runs?created[gte]=yesterday');
    const page = await expectCall(
      200,
      'GET',
      `/v1/program-runs/${id}/events?after_sequence=1&limit=2`,
    );
    expect(page.body.has_more).toBe(true);
    await expectProblem(
      422,
      'invalid_query',
      'GET',
      `/v1/program-runs/${id}/events?after_sequence=-1`,
    );
    await expectProblem(404, 'run_not_found', 'GET', `/v1/program-runs/${id}`, {
      key: OTHER_TEST_KEY,
    });
    await expectProblem(404, 'run_not_found', 'GET', `/v1/program-runs/${id}/events`, {
      key: LIVE_KEY,
    });
  });
});

describe('signals', () => {
  it('takes a run through its approval and partner answer, replaying retried signals', async () => {
    const id = await createRun('wallet-delivery@v1');
    const path = `/v1/program-runs/${id}`;
    await expectProblem(409, 'cancel_not_allowed', 'POST', `${path}/cancel`, { body: {} });
    await expectCall(200, 'POST', '/v1/test_helpers/clock/advance', { body: { seconds: 30 } });
    await expectProblem(409, 'step_not_awaiting', 'POST', `${path}/approvals`, {
      body: { step: 'amount_gate', decision: 'approve', approver: 'ops:ana' },
      headers: { 'idempotency-key': 'stale-approval' },
    });
    const replayedConflict = await expectCall(409, 'POST', `${path}/approvals`, {
      body: { step: 'amount_gate', decision: 'approve', approver: 'ops:ana' },
      headers: { 'idempotency-key': 'stale-approval' },
    });
    expect(replayedConflict.headers.get('idempotent-replayed')).toBe('true');
    const approval = { step: 'release_approval', decision: 'approve', approver: 'ops:ana' };
    await expectCall(200, 'POST', `${path}/approvals`, {
      body: approval,
      headers: { 'idempotency-key': 'approve-1' },
    });
    const replayed = await expectCall(200, 'POST', `${path}/approvals`, {
      body: approval,
      headers: { 'idempotency-key': 'approve-1' },
    });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    await expectProblem(400, 'idempotency_key_invalid', 'POST', `${path}/approvals`, {
      body: approval,
      headers: { 'idempotency-key': 'a b' },
    });
    await expectProblem(422, 'idempotency_key_reused', 'POST', `${path}/approvals`, {
      body: { ...approval, note: 'x' },
      headers: { 'idempotency-key': 'approve-1' },
    });
    const handoff = `${path}/handoffs/transfer_to_wallet`;
    await expectProblem(422, 'invalid_request', 'POST', handoff, {
      body: { outcome: 'confirmed', reference: 'r', idempotency_key: 'nope' },
    });
    await expectProblem(409, 'handoff_key_mismatch', 'POST', handoff, {
      body: { outcome: 'confirmed', reference: 'r', idempotency_key: `pik_${'0'.repeat(32)}` },
    });
    await expectCall(200, 'POST', handoff, { body: { outcome: 'confirmed', reference: '0xfeed' } });
    await expectCall(200, 'POST', handoff, { body: { outcome: 'confirmed', reference: '0xfeed' } });
    await expectProblem(409, 'run_finished', 'POST', `${path}/cancel`);
    await expectProblem(404, 'run_not_found', 'POST', '/v1/program-runs/prun_missing/handoffs/x', {
      body: { outcome: 'failed', reference: 'r' },
    });
  });

  it('cancels a run waiting for an approval', async () => {
    const id = await createRun('wallet-delivery@v1');
    await expectCall(200, 'POST', '/v1/test_helpers/clock/advance', { body: { seconds: 30 } });
    const cancelled = await expectCall(200, 'POST', `/v1/program-runs/${id}/cancel`, {
      body: { reason: 'customer asked' },
    });
    expect(cancelled.body.status).toBe('cancelled');
    await expectProblem(404, 'run_not_found', 'POST', `/v1/program-runs/${id}/approvals`, {
      key: OTHER_TEST_KEY,
      body: { step: 'release_approval', decision: 'reject', approver: 'x' },
    });
  });
});

describe('evidence', () => {
  it('links leads, refuses export without one and exports with one', async () => {
    const session = `sess_openapi_${key()}`;
    const id = await createRun('wallet-delivery@v1', { session });
    await expectProblem(403, 'lead_required', 'GET', `/v1/program-runs/${id}/evidence`);
    const lead = {
      session_id: session,
      name: 'Ana Lima',
      email: 'ana@example.com',
      company: 'Example Pay',
      use_case: 'Payouts',
    };
    await expectCall(201, 'POST', '/v1/access-requests', { body: lead });
    await expectCall(200, 'POST', '/v1/access-requests', { body: lead });
    await expectProblem(422, 'invalid_request', 'POST', '/v1/access-requests', {
      body: { ...lead, email: 'nope' },
    });
    await expectCall(200, 'GET', `/v1/program-runs/${id}/evidence`);
    await expectProblem(404, 'run_not_found', 'GET', '/v1/program-runs/prun_missing/evidence');
    await expectCall(200, 'GET', '/v1/evidence-keys', { key: null });
    await expectCall(200, 'GET', '/v1/evidence-keys?environment=live', { key: null });
    await expectProblem(422, 'invalid_query', 'GET', '/v1/evidence-keys?environment=prod', {
      key: null,
    });
  });
});

describe('test helpers', () => {
  it('keeps the clock to test keys and checks the body', async () => {
    await expectProblem(403, 'test_mode_only', 'POST', '/v1/test_helpers/clock/advance', {
      key: LIVE_KEY,
      body: { seconds: 1 },
    });
    await expectProblem(422, 'invalid_request', 'POST', '/v1/test_helpers/clock/advance', {
      body: { seconds: 0 },
    });
  });
});

describe('problems every operation documents', () => {
  let runId: string;
  const concrete = (path: string) =>
    path
      .replace('{step}', 'transfer_to_wallet')
      .replace('{id}', path.startsWith('/v1/scenarios') ? 'wallet-delivery@v1' : runId);
  beforeAll(async () => {
    runId = await createRun('wallet-delivery@v1');
  });

  it('401 without credentials on every authenticated operation', async () => {
    for (const { path, method, operation } of operations) {
      if ((operation as { security?: unknown[] }).security?.length === 0) continue;
      await expectProblem(401, 'unauthorized', method, concrete(path), {
        key: null,
        ...(method === 'GET' ? {} : { body: {} }),
      });
    }
  });

  it('401 invalid_token for a presented key that is not valid, on every authenticated operation', async () => {
    for (const { path, method, operation } of operations) {
      if ((operation as { security?: unknown[] }).security?.length === 0) continue;
      await expectProblem(401, 'invalid_token', method, concrete(path), {
        key: 'pr_test_revoked_or_unknown',
        ...(method === 'GET' ? {} : { body: {} }),
      });
    }
  });

  it('403 insufficient_scope, naming the scope, on every operation for a key without its scope', async () => {
    for (const { path, method, operation } of operations) {
      const security = (operation as { security?: { ApiKey?: string[] }[] }).security ?? [];
      const scope = security[0]?.ApiKey?.[0];
      if (scope === undefined) continue;
      const { secret } = await server.accounts.apiKeys.create({
        account: 'acct_one',
        environment: 'test',
        scopes: AUTH_SCOPES.filter((held) => held !== scope),
      });
      const answer = await expectProblem(403, 'insufficient_scope', method, concrete(path), {
        key: secret,
        ...(method === 'GET' ? {} : { body: {} }),
      });
      expect(answer.headers.get('www-authenticate')).toBe(
        `Bearer realm="programrun", error="insufficient_scope", scope="${scope}"`,
      );
      expect(answer.body.detail).toContain(scope);
    }
  });

  it('400, 413, 415 and 422 for unusable bodies on every operation that reads one', async () => {
    const raw = (rawBody: string, contentType = 'application/json') => ({
      rawBody,
      headers: { 'content-type': contentType, 'idempotency-key': key() },
    });
    for (const { path, method, operation } of operations) {
      if (!('requestBody' in operation)) continue;
      const url = concrete(path);
      await expectProblem(400, 'malformed_json', method, url, raw('{"a":'));
      await expectProblem(400, 'duplicate_json_key', method, url, raw('{"a":1,"a":2}'));
      await expectProblem(
        413,
        'payload_too_large',
        method,
        url,
        raw(JSON.stringify({ a: 'x'.repeat(70_000) })),
      );
      await expectProblem(415, 'unsupported_media_type', method, url, raw('a=1', 'text/plain'));
      await expectProblem(422, 'invalid_request', method, url, raw('{"bogus":1}'));
    }
  });

  it('422 invalid_path for a path parameter no store could hold, on every operation that has one', async () => {
    for (const { path, method } of operations) {
      if (!path.includes('{')) continue;
      const answer = await expectProblem(
        422,
        'invalid_path',
        method,
        path.replace(/\{[^}]+\}/g, 'x%00'),
        {
          headers: { 'idempotency-key': key() },
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
        },
      );
      expect(answer.body.errors).toContainEqual(
        expect.objectContaining({ pointer: '/id', code: 'invalid_path' }),
      );
    }
  });

  it('404 outside the document and 405 for other methods on documented paths', async () => {
    await expectProblem(404, 'route_not_found', 'GET', '/v1/nothing');
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      const method = 'delete' in (item as object) ? 'PUT' : 'DELETE';
      await expectProblem(405, 'method_not_allowed', method, concrete(path));
    }
  });
});

describe('problems of the host configuration', () => {
  const principal = { account: 'acct_one', environment: 'test', credentialId: 'key_host' } as const;
  async function answerAll(options: Omit<HandlerOptions, 'engine'>, engine?: Engine) {
    const handler = createHandler({
      engine: engine ?? createEngine({ store: createMemoryStore(), scenarios: [] }),
      ...options,
    });
    const answers = [];
    for (const { path, method, operation } of operations) {
      const url = path.replace(/\{[^}]+\}/g, 'x');
      const response = await handler.handle(
        new Request(`http://localhost${url}`, {
          method,
          headers: {
            authorization: 'Bearer host',
            'content-type': 'application/json',
            'idempotency-key': key(),
          },
          ...(method === 'GET' ? {} : { body: '{}' }),
        }),
      );
      answers.push({
        url: `${method} ${url}`,
        public: (operation as { security?: unknown[] }).security?.length === 0,
        ...(await conforming(method, url, response)),
      });
    }
    return answers;
  }

  it('429 with Retry-After when the limiter refuses', async () => {
    const answers = await answerAll({
      authenticate: () => principal,
      rateLimit: { take: () => ({ allowed: false, retryAfterSeconds: 7 }) },
    });
    for (const answer of answers.filter((item) => !item.public)) {
      expect(answer).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
      expect(answer.headers.get('retry-after')).toBe('7');
    }
  });

  it('500 when the authenticate hook fails or returns nonsense', async () => {
    const failing: Authenticate = () => Promise.reject(new Error('boom'));
    for (const answer of (await answerAll({ authenticate: failing })).filter(
      (item) => !item.public,
    )) {
      expect(answer).toMatchObject({ status: 500, body: { code: 'internal_error' } });
    }
    const nonsense = { ...principal, account: '' };
    for (const answer of (await answerAll({ authenticate: () => nonsense })).filter(
      (item) => !item.public,
    )) {
      expect(answer).toMatchObject({ status: 500, body: { code: 'invalid_principal' } });
    }
  });

  it('503 when evidence signing is not configured, 500 when the engine fails', async () => {
    const answers = await answerAll({ authenticate: () => principal });
    const evidence = answers.filter((answer) => answer.body.code === 'evidence_keys_missing');
    expect(evidence.map((answer) => answer.status)).toEqual([503, 503]);
    const broken: Engine = {
      ...server.engine,
      evidenceKeys: () => {
        throw new Error('boom');
      },
    };
    const keys = await answerAll({ authenticate: () => principal }, broken);
    expect(keys.find((answer) => answer.public && answer.status === 500)).toBeDefined();
  });

  it('503 store_unavailable from every operation that reads a store that cannot be reached', async () => {
    const store = createMemoryStore();
    await store.close();
    const answers = await answerAll(
      { authenticate: () => principal },
      createEngine({ store, scenarios: [], evidence: { keys: evidenceKeys } }),
    );
    // The catalogue and the caller's principal are answered without the store.
    const storeBound = answers.filter(
      (answer) =>
        !answer.public &&
        !answer.url.includes(' /v1/scenarios') &&
        !answer.url.endsWith(' /v1/principal'),
    );
    expect(storeBound.length).toBeGreaterThan(10);
    for (const answer of storeBound)
      expect(answer, answer.url).toMatchObject({
        status: 503,
        body: { code: 'store_unavailable' },
      });
  });

  it('422 unstorable_value from every operation whose store refuses a value', async () => {
    const inner = createMemoryStore();
    const refusing: StoreV1 = {
      ...inner,
      transaction: (work) =>
        inner.transaction((tx) =>
          work(
            Object.fromEntries(
              Object.keys(tx).map((name) => [
                name,
                () => Promise.reject(new StoreError('unstorable_value', `${name}: refused`)),
              ]),
            ) as unknown as StoreTransactionV1,
          ),
        ),
    };
    const answers = await answerAll(
      { authenticate: () => principal },
      createEngine({ store: refusing, scenarios: [], evidence: { keys: evidenceKeys } }),
    );
    // The catalogue and the caller's principal are answered without the store.
    const storeBound = answers.filter(
      (answer) =>
        !answer.public &&
        !answer.url.includes(' /v1/scenarios') &&
        !answer.url.endsWith(' /v1/principal'),
    );
    expect(storeBound.length).toBeGreaterThan(10);
    for (const answer of storeBound) {
      expect(answer.status, answer.url).toBe(422);
      // Bodies of `{}` that their schema refuses never reach the store.
      expect(['unstorable_value', 'invalid_request'], answer.url).toContain(answer.body.code);
    }
    expect(
      storeBound.filter((answer) => answer.body.code === 'unstorable_value').length,
    ).toBeGreaterThan(10);
  });

  it('200 for a creation retried after its stored response expired', async () => {
    const handler = createHandler({
      engine: server.engine,
      authenticate: () => principal,
      idempotency: { retentionMs: 0 },
    });
    const body = JSON.stringify({
      scenario_id: 'wallet-delivery@v1',
      inputs: await exampleInputs('wallet-delivery@v1'),
    });
    const create = () =>
      handler.handle(
        new Request('http://localhost/v1/program-runs', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': 'expired-response' },
          body,
        }),
      );
    const first = await conforming('POST', '/v1/program-runs', await create());
    const again = await conforming('POST', '/v1/program-runs', await create());
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.id).toBe(first.body.id);
  });
});

describe('idempotency on every POST', () => {
  it('answers 409 while a request holding the same key is in flight, then replays', async () => {
    const scope = { account: 'acct_one', environment: 'test' } as const;
    const endpoint = await server.engine.webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/idempotency',
    });
    await createRun('wallet-delivery@v1');
    const event = (await server.engine.webhooks.listEvents(scope, { limit: 1 })).data[0]!;
    const cases = [
      { path: '/v1/test_helpers/clock/advance', body: { seconds: 5 } },
      { path: '/v1/webhook-endpoints', body: { url: 'https://hooks.example.com/in-flight' } },
      { path: `/v1/webhook-endpoints/${endpoint.id}`, body: { description: 'x' } },
      { path: `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, body: {} },
      { path: `/v1/events/${event.id}/redeliver`, body: {} },
      {
        path: '/v1/access-requests',
        body: {
          session_id: 'sess_in_flight',
          name: 'Ana Lima',
          email: 'ana@example.com',
          company: 'Example Pay',
          use_case: 'Audit',
        },
      },
      {
        path: '/v1/program-runs',
        body: {
          scenario_id: 'wallet-delivery@v1',
          inputs: await exampleInputs('wallet-delivery@v1'),
        },
      },
    ];
    for (const { path, body } of cases) {
      const idempotencyKey = key();
      const now = new Date();
      // Another request with this key and body is still running.
      await server.engine.unitOfWork({ account: 'acct_one', environment: 'test' }, ({ tx }) =>
        tx.putIdempotencyRecord({
          account: 'acct_one',
          environment: 'test',
          key: idempotencyKey,
          fingerprint: canonicalDigest({ method: 'POST', path, body }),
          state: 'in_flight',
          response: null,
          locked_until: new Date(now.getTime() + 60_000).toISOString(),
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
        }),
      );
      const busy = await expectProblem(409, 'idempotency_key_in_use', 'POST', path, {
        body,
        headers: { 'idempotency-key': idempotencyKey },
      });
      expect(busy.headers.get('retry-after')).toBe('1');
      await server.engine.unitOfWork({ account: 'acct_one', environment: 'test' }, ({ tx }) =>
        tx.deleteIdempotencyRecord({ account: 'acct_one', environment: 'test' }, idempotencyKey),
      );
      const first = await call('POST', path, {
        body,
        headers: { 'idempotency-key': idempotencyKey },
      });
      const again = await call('POST', path, {
        body,
        headers: { 'idempotency-key': idempotencyKey },
      });
      expect(again.status).toBe(first.status);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
    }
  });
});

describe('webhook endpoints and events', () => {
  const deleteAllEndpoints = async () => {
    for (const endpoint of (await call('GET', '/v1/webhook-endpoints')).body.data as {
      id: string;
    }[])
      await expectCall(200, 'DELETE', `/v1/webhook-endpoints/${endpoint.id}`);
  };

  it('registers, reads, changes, rotates and deletes endpoints, and refuses bad ones', async () => {
    const created = await expectCall(201, 'POST', '/v1/webhook-endpoints', {
      body: { url: 'https://hooks.example.com/a', enabled_events: ['program_run.*'] },
      headers: { 'idempotency-key': key() },
    });
    const id = created.body.id as string;
    await expectCall(200, 'GET', '/v1/webhook-endpoints');
    await expectCall(200, 'GET', `/v1/webhook-endpoints/${id}`);
    await expectCall(200, 'POST', `/v1/webhook-endpoints/${id}`, { body: { description: 'ops' } });
    await expectCall(200, 'POST', `/v1/webhook-endpoints/${id}/rotate-secret`, {
      body: { overlap_seconds: 60 },
    });
    await expectProblem(422, 'invalid_webhook_endpoint', 'POST', '/v1/webhook-endpoints', {
      body: { url: 'https://10.0.0.1/hook' },
      headers: { 'idempotency-key': key() },
    });
    await expectProblem(422, 'invalid_webhook_endpoint', 'POST', `/v1/webhook-endpoints/${id}`, {
      body: { enabled_events: ['program_run.nope'] },
    });
    await expectProblem(
      422,
      'invalid_request',
      'POST',
      `/v1/webhook-endpoints/${id}/rotate-secret`,
      {
        body: { overlap_seconds: -1 },
      },
    );
    for (const [method, path] of [
      ['GET', '/v1/webhook-endpoints/we_missing'],
      ['POST', '/v1/webhook-endpoints/we_missing'],
      ['POST', '/v1/webhook-endpoints/we_missing/rotate-secret'],
      ['DELETE', '/v1/webhook-endpoints/we_missing'],
    ] as const) {
      await expectProblem(404, 'webhook_endpoint_not_found', method, path, {
        ...(method === 'POST' ? { body: {} } : {}),
      });
    }
    const existing = (await call('GET', '/v1/webhook-endpoints')).body.data as unknown[];
    for (let index = existing.length; index < 16; index += 1) {
      await expectCall(201, 'POST', '/v1/webhook-endpoints', {
        body: { url: `https://hooks.example.com/${index}` },
        headers: { 'idempotency-key': key() },
      });
    }
    await expectProblem(409, 'webhook_endpoint_limit', 'POST', '/v1/webhook-endpoints', {
      body: { url: 'https://hooks.example.com/17' },
      headers: { 'idempotency-key': key() },
    });
    await deleteAllEndpoints();
  });

  it('lists and reads events, their deliveries, and redelivers them', async () => {
    await deleteAllEndpoints();
    const runId = await createRun('wallet-delivery@v1');
    const page = await expectCall(200, 'GET', `/v1/events?run=${runId}&limit=2`);
    const eventId = (page.body.data as { id: string }[])[0]!.id;
    await expectCall(200, 'GET', `/v1/events?delivery_status=none&type=program_run.created`);
    await expectProblem(422, 'invalid_query', 'GET', '/v1/events?delivery_status=maybe');
    await expectCall(200, 'GET', `/v1/events/${eventId}`);
    await expectCall(200, 'GET', `/v1/events/${eventId}/deliveries`);
    await expectProblem(404, 'event_not_found', 'GET', '/v1/events/evt_missing');
    await expectProblem(404, 'event_not_found', 'GET', '/v1/events/evt_missing/deliveries');
    await expectProblem(404, 'event_not_found', 'POST', '/v1/events/evt_missing/redeliver', {
      body: {},
    });
    await expectProblem(409, 'no_webhook_endpoints', 'POST', `/v1/events/${eventId}/redeliver`, {
      body: {},
    });
    const endpoint = await expectCall(201, 'POST', '/v1/webhook-endpoints', {
      body: { url: 'https://hooks.example.com/redeliver' },
      headers: { 'idempotency-key': key() },
    });
    const redelivered = await expectCall(200, 'POST', `/v1/events/${eventId}/redeliver`, {
      body: { endpoint: endpoint.body.id },
    });
    expect(redelivered.body.data).toMatchObject([{ status: 'pending', event: eventId }]);
    await expectCall(200, 'POST', `/v1/webhook-endpoints/${endpoint.body.id as string}`, {
      body: { status: 'disabled' },
    });
    await expectProblem(
      409,
      'webhook_endpoint_disabled',
      'POST',
      `/v1/events/${eventId}/redeliver`,
      { body: { endpoint: endpoint.body.id } },
    );
    await expectCall(200, 'DELETE', `/v1/webhook-endpoints/${endpoint.body.id as string}`);
  });
});

describe('the caller, diagrams, streams and the test clock', () => {
  it('reads the principal with any credential', async () => {
    const answer = await expectCall(200, 'GET', '/v1/principal');
    expect(answer.body).toMatchObject({ object: 'principal', account: 'acct_one' });
  });

  it('draws scenarios, revalidates them and refuses unknown ones', async () => {
    const drawn = await expectCall(200, 'GET', '/v1/scenarios/wallet-delivery@v1/diagram');
    await expectCall(304, 'GET', '/v1/scenarios/wallet-delivery@v1/diagram', {
      headers: { 'if-none-match': drawn.headers.get('etag')! },
    });
    await expectProblem(404, 'scenario_not_found', 'GET', '/v1/scenarios/nope@v9/diagram');
  });

  it('reads and advances the test clock to the next timer, 409 when there is none', async () => {
    await expectCall(200, 'GET', '/v1/test_helpers/clock');
    await expectProblem(403, 'test_mode_only', 'GET', '/v1/test_helpers/clock', {
      key: LIVE_KEY,
    });
    const { secret } = await server.accounts.apiKeys.create({
      account: 'acct_no_timers',
      environment: 'test',
    });
    await expectProblem(409, 'no_pending_timer', 'POST', '/v1/test_helpers/clock/advance', {
      key: secret,
      body: { to: 'next_timer' },
    });
    await createRun('wallet-delivery@v1', { key: secret });
    await expectCall(200, 'POST', '/v1/test_helpers/clock/advance', {
      key: secret,
      body: { to: 'next_timer' },
    });
  });

  it('streams a run until it is final, refuses other runs and a credential’s 11th stream', async () => {
    const id = await createRun('wallet-delivery@v1');
    await expectCall(200, 'POST', '/v1/test_helpers/clock/advance', { body: { seconds: 60 } });
    await expectCall(200, 'POST', `/v1/program-runs/${id}/cancel`, { body: {} });
    // A final run: one event, then the stream ends, so the client reads it whole.
    const streamed = await expectCall(200, 'GET', `/v1/program-runs/${id}/stream`);
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    await expectProblem(404, 'run_not_found', 'GET', '/v1/program-runs/prun_missing/stream');

    const runningId = await createRun('wallet-delivery@v1');
    const handler = createHandler({ engine: server.engine, accounts: server.accounts });
    const open = () =>
      handler.handle(
        new Request(`http://localhost/v1/program-runs/${runningId}/stream`, {
          headers: { authorization: `Bearer ${TEST_KEY}` },
        }),
      );
    const streams = await Promise.all(Array.from({ length: 10 }, open));
    expect(streams.map((response) => response.status)).toEqual(Array(10).fill(200));
    await conforming('GET', `/v1/program-runs/${runningId}/stream`, await open()).then((answer) =>
      expect(answer.body.code).toBe('too_many_streams'),
    );
    handler.closeStreams();
    for (const response of streams) await response.text();
  });
});

describe('coverage', () => {
  const unreachable: Record<string, number[]> = {
    // Serving a prebuilt document has nothing a test can make fail.
    getOpenApiDocument: [500],
    // Nor has answering that the process is alive.
    getHealth: [500],
    // A DELETE has no body: only the Express adapter's body_already_read answers 400
    // (adapters.http.test.ts covers that answer).
    deleteWebhookEndpoint: [400],
  };

  it('every documented status of every operation was answered and conformed', () => {
    const missing = operations.flatMap(({ operation }) =>
      Object.keys(operation.responses)
        .map(Number)
        .filter((status) => !client.seen.get(operation.operationId)?.has(status))
        .filter((status) => !unreachable[operation.operationId]?.includes(status))
        .map((status) => `${operation.operationId} ${status}`),
    );
    expect(missing).toEqual([]);
  });
});
