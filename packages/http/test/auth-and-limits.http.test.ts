import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@programrun/engine';
import { ERROR_CATALOGUE, type Handler } from '../src/index.js';
import { listen, type Listening } from './adapter-servers.js';
import {
  createTestHandler,
  LIVE_KEY,
  OTHER_TEST_KEY,
  startTestServer,
  TEST_KEY,
  type TestServer,
} from './harness.js';

const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function problemOf(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await response.json()) as Record<string, unknown>;
  expect(problem).toMatchObject({
    type: `https://programrun.dev/problems/${code}`,
    status,
    code,
    title: ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].title,
  });
  expect(problem.request_id).toBe(response.headers.get('request-id'));
  return problem;
}

/** Sends a request with exactly these headers (no default key). */
const raw = (path: string, headers: Record<string, string>, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}${path}`, { ...init, headers });

describe('authentication', () => {
  it('answers a request presenting no credentials 401 unauthorized with a bare challenge', async () => {
    // RFC 6750 3.1: no error attribute when the request lacks authentication information,
    // including another scheme than Bearer.
    const attempts: Record<string, string>[] = [
      {},
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: `Basic ${btoa(`${TEST_KEY}:`)}` },
      { authorization: `Token ${TEST_KEY}` },
    ];
    const bodies = new Set<string>();
    for (const headers of attempts) {
      const response = await raw('/v1/program-runs', headers);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="programrun"');
      const problem = await problemOf(response, 401, 'unauthorized');
      const text = JSON.stringify({ ...problem, request_id: null });
      expect(text).not.toContain('pr_test_');
      expect(text).not.toContain('invalid_token');
      bodies.add(text);
    }
    expect(bodies.size).toBe(1);
  });

  it('answers every presented bad key with the same 401 invalid_token body and challenge', async () => {
    const revoked = await server.accounts.apiKeys.create({
      account: 'acct_one',
      environment: 'test',
    });
    await server.accounts.apiKeys.revoke('acct_one', revoked.apiKey.id);
    const wrongChecksum = `${TEST_KEY.slice(0, -1)}${TEST_KEY.endsWith('A') ? 'B' : 'A'}`;
    const attempts: Record<string, string>[] = [
      { authorization: 'Bearer pr_test_nope' },
      { authorization: `Bearer ${wrongChecksum}` },
      { authorization: `Bearer ${generateApiKey('test')}` },
      { authorization: `Bearer ${revoked.secret}` },
      { authorization: `Bearer ${TEST_KEY} extra` },
    ];
    const bodies = new Set<string>();
    for (const headers of attempts) {
      const response = await raw('/v1/program-runs', headers);
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer realm="programrun", error="invalid_token"',
      );
      const problem = await problemOf(response, 401, 'invalid_token');
      const text = JSON.stringify({ ...problem, request_id: null });
      // Nothing of the presented secret comes back.
      expect(text).not.toContain('pr_test_');
      bodies.add(text);
    }
    expect(bodies.size).toBe(1);
  });

  it('accepts the scheme case-insensitively and keys of both environments', async () => {
    expect((await raw('/v1/scenarios', { authorization: `bearer ${TEST_KEY}` })).status).toBe(200);
    expect((await raw('/v1/scenarios', { authorization: `Bearer ${LIVE_KEY}` })).status).toBe(200);
  });

  it('takes the principal from a host authenticate hook, and refuses an invalid one', async () => {
    const { handler } = await createTestHandler({
      authenticate: (request) =>
        request.headers.get('x-session') === 'good'
          ? { account: 'acct_host', environment: 'test', credentialId: 'session-1' }
          : request.headers.get('x-session') === 'broken'
            ? ({ account: '', environment: 'staging', credentialId: '' } as never)
            : null,
    });
    const listening: Listening = await listen('node', handler);
    try {
      const create = await fetch(`${listening.baseUrl}/v1/program-runs`, {
        method: 'POST',
        headers: {
          'x-session': 'good',
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify({ scenario_id: 'wallet-delivery@v1', inputs: walletInputs }),
      });
      expect(create.status).toBe(201);
      const run = (await create.json()) as { id: string };
      const own = await fetch(`${listening.baseUrl}/v1/program-runs/${run.id}`, {
        headers: { 'x-session': 'good' },
      });
      expect(own.status).toBe(200);
      // The built-in keys are not consulted when the host authenticates.
      const viaKey = await fetch(`${listening.baseUrl}/v1/program-runs/${run.id}`, {
        headers: { authorization: `Bearer ${TEST_KEY}` },
      });
      expect(viaKey.status).toBe(401);
      const broken = await fetch(`${listening.baseUrl}/v1/scenarios`, {
        headers: { 'x-session': 'broken' },
      });
      const problem = await problemOf(broken, 500, 'invalid_principal');
      expect(problem.detail).toContain('authenticate hook');
    } finally {
      await listening.close();
    }
  });
});

describe('limits', () => {
  const create = (body: string, headers: Record<string, string> = {}) =>
    server.request('POST', '/v1/program-runs', {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
        ...headers,
      },
    });

  it('refuses duplicate JSON keys with 400 and a pointer to the repeated key', async () => {
    const problem = await problemOf(
      await create(
        '{"scenario_id":"wallet-delivery@v1","inputs":{"amount":"1.00","amount":"9000.00","destination_wallet_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","network":"base"}}',
      ),
      400,
      'duplicate_json_key',
    );
    expect(problem.errors).toEqual([
      {
        pointer: '/inputs/amount',
        code: 'duplicate_json_key',
        message: 'appears more than once in its object',
      },
    ]);
    await problemOf(
      await create('{"scenario_id":"a","scenario_id":"wallet-delivery@v1","inputs":{}}'),
      400,
      'duplicate_json_key',
    );
  });

  it('refuses bodies nested too deep, not UTF-8, or not JSON with clear codes', async () => {
    await problemOf(await create(`${'['.repeat(5000)}${']'.repeat(5000)}`), 400, 'malformed_json');
    await problemOf(await create('{"a":'), 400, 'malformed_json');
    const noBody = await server.request('POST', '/v1/program-runs', {
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    await problemOf(noBody, 415, 'unsupported_media_type');
    const bytes = await fetch(`${server.baseUrl}/v1/program-runs`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    });
    await problemOf(bytes, 400, 'malformed_json');
    await problemOf(
      await create('{"scenario_id":"wallet-delivery@v1"}', { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
  });

  it('refuses unknown top-level fields with 422 naming each', async () => {
    const problem = await problemOf(
      await create(
        JSON.stringify({
          scenario_id: 'wallet-delivery@v1',
          inputs: walletInputs,
          amount: '1.00',
          metadata: {},
        }),
      ),
      422,
      'invalid_request',
    );
    expect(problem.errors).toEqual([
      { pointer: '/amount', code: 'unknown_field', message: 'is not a field of this request' },
      { pointer: '/metadata', code: 'unknown_field', message: 'is not a field of this request' },
    ]);
  });

  it('refuses bodies over the configured limit with 413', async () => {
    const { handler } = await createTestHandler({ maxBodyBytes: 1024 });
    const listening = await listen('node', handler);
    try {
      const response = await fetch(`${listening.baseUrl}/v1/program-runs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TEST_KEY}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify({ scenario_id: 'x'.repeat(2000), inputs: {} }),
      });
      const problem = await problemOf(response, 413, 'payload_too_large');
      expect(problem.detail).toContain('1024');
    } finally {
      await listening.close();
    }
  });

  it('rate-limits each key with a token bucket: 429 with Retry-After, other keys unaffected', async () => {
    const { handler } = await createTestHandler({
      rateLimit: { requestsPerSecond: 1, burst: 3 },
    });
    const listening = await listen('node', handler);
    const get = (key: string) =>
      fetch(`${listening.baseUrl}/v1/scenarios`, { headers: { authorization: `Bearer ${key}` } });
    try {
      const statuses = [];
      for (let index = 0; index < 4; index += 1) statuses.push((await get(TEST_KEY)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await get(TEST_KEY);
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(limited.headers.get('request-id')).toMatch(/^req_/);
      await problemOf(limited, 429, 'rate_limited');
      // Another key (even of the same account's other environment) has its own bucket.
      expect((await get(OTHER_TEST_KEY)).status).toBe(200);
      expect((await get(LIVE_KEY)).status).toBe(200);
      // Public endpoints are not counted against anyone.
      expect((await fetch(`${listening.baseUrl}/v1/evidence-keys`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await get(TEST_KEY)).status).toBe(200);
    } finally {
      await listening.close();
    }
  });

  it('puts Request-Id on every answer, errors included', async () => {
    const responses = await Promise.all([
      raw('/v1/scenarios', {}),
      server.request('GET', '/v1/nowhere'),
      server.request('DELETE', '/v1/scenarios'),
      server.request('GET', '/v1/scenarios'),
      raw('/v1/evidence-keys', {}),
    ]);
    const ids = responses.map((response) => response.headers.get('request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

/** POSTs a create-run body as a stream (no Content-Length) straight to `handle`. */
const postStream = (handler: Handler, body: ReadableStream<Uint8Array>) =>
  handler.handle(
    new Request('http://localhost/v1/program-runs', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body,
      duplex: 'half',
    }),
  );

describe('the fetch handler without an adapter', () => {
  it('stops reading a chunked body at the limit (an endless stream still gets its 413)', async () => {
    const { handler } = await createTestHandler({ maxBodyBytes: 4096 });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode(' '.repeat(1024)));
      },
    });
    const problem = await problemOf(await postStream(handler, endless), 413, 'payload_too_large');
    expect(problem.detail).toContain('4096');
    expect(pulled).toBeLessThan(10);
  });

  it('reads a chunked body under the limit whole', async () => {
    const { handler } = await createTestHandler();
    const text = JSON.stringify({ scenario_id: 'wallet-delivery@v1', inputs: walletInputs });
    const chunks = [text.slice(0, 10), text.slice(10, 40), text.slice(40)];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    expect((await postStream(handler, stream)).status).toBe(201);
  });
});
