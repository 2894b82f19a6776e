// GET /v1/scenarios/{id}/versions through handler.handle: the versions of a scenario the
// host loads or the account has runs of, with the caller's account's runs by status, for
// a name or any of its ids; another account's runs are not counted; an unknown name is a
// 404 problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_TEST_KEY, startTestServer, TEST_KEY, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('handle');
  const wallet = server.engine.scenarios.get('wallet-delivery@v1');
  for (const [index, key] of [TEST_KEY, TEST_KEY, OTHER_TEST_KEY].entries()) {
    const response = await server.request('POST', '/v1/program-runs', {
      key,
      body: { scenario_id: wallet.id, inputs: wallet.definition.example_inputs },
      headers: { 'idempotency-key': `versions-${index}` },
    });
    expect(response.status).toBe(201);
  }
});
afterAll(() => server.close());

const versionsOf = async (id: string, key = TEST_KEY) => {
  const response = await server.request('GET', `/v1/scenarios/${id}/versions`, { key });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('GET /v1/scenarios/{id}/versions', () => {
  it("lists each version with the account's runs by status, for a name or an id", async () => {
    const usage = {
      object: 'scenario_version_usage',
      scenario_id: 'wallet-delivery@v1',
      loaded: true,
      by_status: { waiting: 2 },
      total: 2,
      unfinished: 2,
      drained: false,
    };
    const expected = {
      object: 'list',
      url: '/v1/scenarios/wallet-delivery/versions',
      data: [usage],
      has_more: false,
    };
    expect(await versionsOf('wallet-delivery')).toEqual({ status: 200, body: expected });
    expect(await versionsOf('wallet-delivery@v1')).toEqual({ status: 200, body: expected });
    // Another account counts its own runs only.
    expect((await versionsOf('wallet-delivery', OTHER_TEST_KEY)).body.data).toEqual([
      { ...usage, by_status: { waiting: 1 }, total: 1, unfinished: 1 },
    ]);
    // A loaded version without runs of the account has drained.
    expect((await versionsOf('bank-payout')).body.data).toEqual([
      expect.objectContaining({ scenario_id: 'bank-payout@v1', total: 0, drained: true }),
    ]);
  });

  it('answers 404 for a scenario it neither loads nor has runs of, and 401 without a key', async () => {
    for (const id of ['no-such-scenario', 'Not%20A%20Name']) {
      const { status, body } = await versionsOf(id);
      expect(status, id).toBe(404);
      expect(body).toMatchObject({ code: 'scenario_not_found' });
    }
    const anonymous = await server.request('GET', '/v1/scenarios/wallet-delivery/versions', {
      key: null,
    });
    expect(anonymous.status).toBe(401);
  });
});
