import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startTestServer, type TestServer } from './harness.js';

// 50 clients send the same creation with the same Idempotency-Key at once. Exactly one
// run exists afterwards and every answer is that run: the first 201, then replays of it
// (the key check, the creation and the stored answer share one transaction, so a racing
// request waits for the first to commit instead of being turned away).

const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

describe.each(ADAPTERS)('over the %s adapter', (adapter) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(adapter);
  });
  afterAll(async () => {
    await server.close();
  });

  it('50 simultaneous creates with one Idempotency-Key make exactly one run', async () => {
    const key = crypto.randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        server.request('POST', '/v1/program-runs', {
          body: { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    const answers = await Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        replayed: response.headers.get('idempotent-replayed'),
        body: await response.text(),
      })),
    );
    const created = answers.filter((answer) => answer.status === 201);
    expect(created).toHaveLength(50);
    expect(created.filter((answer) => answer.replayed === null)).toHaveLength(1);
    // Every answer carries the identical bytes of the one run.
    expect(new Set(created.map((answer) => answer.body)).size).toBe(1);
    const run = JSON.parse(created[0]!.body) as { id: string };
    const list = (await (await server.request('GET', '/v1/program-runs?limit=100')).json()) as {
      data: { id: string }[];
    };
    expect(list.data.filter((item) => item.id === run.id)).toHaveLength(1);
    expect(list.data).toHaveLength(1);

    // Once settled, a retry replays the same run.
    const retry = await server.request('POST', '/v1/program-runs', {
      body: { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
      headers: { 'idempotency-key': key },
    });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(created[0]!.body);
  });

  it('50 simultaneous creates with distinct keys make 50 runs', async () => {
    const before = (await (await server.request('GET', '/v1/program-runs?limit=100')).json()) as {
      data: unknown[];
    };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        server.request('POST', '/v1/program-runs', {
          body: { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
          headers: { 'idempotency-key': crypto.randomUUID() },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(201));
    const ids = await Promise.all(
      responses.map(async (response) => ((await response.json()) as { id: string }).id),
    );
    expect(new Set(ids).size).toBe(50);
    const after = (await (await server.request('GET', '/v1/program-runs?limit=100')).json()) as {
      data: unknown[];
    };
    expect(after.data.length - before.data.length).toBe(50);
  });
});
