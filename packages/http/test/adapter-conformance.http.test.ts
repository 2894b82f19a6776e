// What every adapter must carry over a real socket, on top of the semantics tested once
// through handler.handle: status, headers and bodies of a write and its replay, a read,
// problems (body, route, method, credentials, query), an empty-bodied signal and a
// public resource with its own media type. Every answer is also held to the OpenAPI
// document by the harness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startTestServer, type TestServer } from './harness.js';

const walletRun = {
  scenario_id: 'wallet-delivery@v1',
  inputs: {
    amount: '125.00',
    destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    network: 'base',
  },
};

async function problemOf(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await response.json()) as { code: string; request_id: string };
  expect(problem.code).toBe(code);
  expect(problem.request_id).toBe(response.headers.get('request-id'));
  return problem;
}

describe.each(ADAPTERS)('the %s adapter', (adapter) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(adapter);
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates a run, replays it for the same key, and reads it', async () => {
    const key = crypto.randomUUID();
    const first = await server.request('POST', '/v1/program-runs', {
      body: walletRun,
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    expect(first.headers.get('content-type')).toBe('application/json');
    const requestId = first.headers.get('request-id');
    expect(requestId).toMatch(/^req_/);
    const run = (await first.json()) as { id: string; status: string };
    expect(run.status).toBe('waiting');

    const replay = await server.request('POST', '/v1/program-runs', {
      body: walletRun,
      headers: { 'idempotency-key': key },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('original-request-id')).toBe(requestId);
    expect(((await replay.json()) as { id: string }).id).toBe(run.id);

    const read = await server.request('GET', `/v1/program-runs/${run.id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { id: string }).id).toBe(run.id);
  });

  it('cancels with an empty body and no Content-Type', async () => {
    const created = await server.request('POST', '/v1/program-runs', {
      body: { ...walletRun, inputs: { ...walletRun.inputs, amount: '40.00' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const { id } = (await created.json()) as { id: string };
    // wallet-delivery waits on a screening handoff first, which refuses cancel: advance
    // the clock so the simulated partner answers and the run waits on its approval.
    await server.request('POST', '/v1/test_helpers/clock/advance', { body: { seconds: 60 } });
    const cancelled = await server.request('POST', `/v1/program-runs/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { status: string }).status).toBe('cancelled');
  });

  it('answers problems as problem+json with the request id', async () => {
    const invalid = await server.request('POST', '/v1/program-runs', {
      body: { scenario_id: 'wallet-delivery@v1' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const problem = (await problemOf(invalid, 422, 'invalid_request')) as {
      errors?: { pointer: string }[];
    };
    expect(problem.errors?.map((error) => error.pointer)).toContain('/inputs');
    await problemOf(await server.request('GET', '/v1/nothing'), 404, 'route_not_found');
    const wrong = await server.request('DELETE', '/v1/program-runs');
    await problemOf(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('POST, GET');
    const anonymous = await server.request('GET', '/v1/program-runs', { key: null });
    await problemOf(anonymous, 401, 'unauthorized');
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer /);
    await problemOf(await server.request('GET', '/v1/events?limit=0'), 422, 'invalid_query');
  });

  it('serves the public evidence keys with their media type and caching', async () => {
    const keys = await server.request('GET', '/v1/evidence-keys', { key: null });
    expect(keys.status).toBe(200);
    expect(keys.headers.get('content-type')).toBe('application/jwk-set+json');
    expect(keys.headers.get('cache-control')).toBe('public, max-age=300');
  });
});
