import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LIVE_KEY, OTHER_TEST_KEY, startTestServer, TEST_KEY, type TestServer } from './harness.js';

// Every object is scoped to account + environment: whatever one principal does, another
// account, or the same account's other environment, never reads or changes it, and
// never learns it exists (404, not 403).

const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

interface Principal {
  readonly name: string;
  readonly key: string;
  readonly live: boolean;
}

let server: TestServer;
let principals: Principal[];
beforeAll(async () => {
  server = await startTestServer('handle');
  const twoLive = await server.accounts.apiKeys.create({
    account: 'acct_two',
    environment: 'live',
  });
  principals = [
    { name: 'acct_one/test', key: TEST_KEY, live: false },
    { name: 'acct_two/test', key: OTHER_TEST_KEY, live: false },
    { name: 'acct_one/live', key: LIVE_KEY, live: true },
    { name: 'acct_two/live', key: twoLive.secret, live: true },
  ];
});
afterAll(async () => {
  await server.close();
});

type Intrusion =
  | 'get'
  | 'events'
  | 'approve'
  | 'handoff'
  | 'cancel'
  | 'evidence'
  | 'list'
  | 'same_idempotency_key'
  | 'access_request'
  | 'advance_clock';

const INTRUSIONS: readonly Intrusion[] = [
  'get',
  'events',
  'approve',
  'handoff',
  'cancel',
  'evidence',
  'list',
  'same_idempotency_key',
  'access_request',
  'advance_clock',
];

async function expectNotFound(response: Response): Promise<void> {
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ code: 'run_not_found' });
}

async function intrude(
  intruder: Principal,
  intrusion: Intrusion,
  run: { id: string; session: string; idempotencyKey: string },
): Promise<void> {
  const as = { key: intruder.key };
  const path = `/v1/program-runs/${run.id}`;
  switch (intrusion) {
    case 'get':
      return expectNotFound(await server.request('GET', path, as));
    case 'events':
      return expectNotFound(await server.request('GET', `${path}/events`, as));
    case 'approve':
      return expectNotFound(
        await server.request('POST', `${path}/approvals`, {
          ...as,
          body: { step: 'release_approval', decision: 'approve', approver: 'ops:intruder' },
        }),
      );
    case 'handoff':
      return expectNotFound(
        await server.request('POST', `${path}/handoffs/screen_destination`, {
          ...as,
          body: { outcome: 'confirmed', reference: 'forged' },
        }),
      );
    case 'cancel':
      return expectNotFound(await server.request('POST', `${path}/cancel`, as));
    case 'evidence':
      return expectNotFound(await server.request('GET', `${path}/evidence`, as));
    case 'list': {
      const list = (await (
        await server.request('GET', '/v1/program-runs?limit=100', as)
      ).json()) as {
        data: { id: string }[];
      };
      expect(list.data.map((item) => item.id)).not.toContain(run.id);
      return;
    }
    case 'same_idempotency_key': {
      // The same Idempotency-Key in another scope is another key: a new run, no replay.
      const response = await server.request('POST', '/v1/program-runs', {
        ...as,
        body: { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
        headers: { 'idempotency-key': run.idempotencyKey },
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
      expect(((await response.json()) as { id: string }).id).not.toBe(run.id);
      return;
    }
    case 'access_request': {
      // A lead for the same session id in another scope does not unlock this run's evidence.
      const response = await server.request('POST', '/v1/access-requests', {
        ...as,
        body: {
          session_id: run.session,
          name: 'Intruder',
          email: 'intruder@example.com',
          company: 'Elsewhere',
          use_case: 'Peeking',
        },
      });
      expect([200, 201]).toContain(response.status);
      return;
    }
    case 'advance_clock': {
      const response = await server.request('POST', '/v1/test_helpers/clock/advance', {
        ...as,
        body: { seconds: 7 * 24 * 3600 },
      });
      expect(response.status).toBe(intruder.live ? 403 : 200);
      return;
    }
  }
}

describe('tenancy: account × environment isolation', () => {
  it('no read, signal, lead or clock of one principal crosses to another', async () => {
    let counter = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.uniqueArray(fc.constantFrom(...INTRUSIONS), {
          minLength: 1,
          maxLength: INTRUSIONS.length,
        }),
        async (ownerIndex, offset, intrusions) => {
          const owner = principals[ownerIndex]!;
          const intruder = principals[(ownerIndex + offset) % principals.length]!;
          counter += 1;
          const session = `sess_tenancy_${counter}`;
          const idempotencyKey = `tenancy-${counter}`;
          const created = await server.request('POST', '/v1/program-runs', {
            key: owner.key,
            body: { scenario_id: 'wallet-delivery@v1', session_id: session, inputs: walletInputs },
            headers: { 'idempotency-key': idempotencyKey },
          });
          expect(created.status).toBe(201);
          const run = (await created.json()) as { id: string; livemode: boolean };
          expect(run.livemode).toBe(owner.live);
          const before = await (
            await server.request('GET', `/v1/program-runs/${run.id}`, { key: owner.key })
          ).text();
          const eventsBefore = await (
            await server.request('GET', `/v1/program-runs/${run.id}/events`, { key: owner.key })
          ).text();

          for (const intrusion of intrusions) {
            await intrude(intruder, intrusion, { id: run.id, session, idempotencyKey });
          }

          // The owner sees exactly what it saw before: nothing moved, nothing unlocked.
          const after = await server.request('GET', `/v1/program-runs/${run.id}`, {
            key: owner.key,
          });
          expect(await after.text()).toBe(before);
          expect(
            await (
              await server.request('GET', `/v1/program-runs/${run.id}/events`, { key: owner.key })
            ).text(),
          ).toBe(eventsBefore);
          const evidence = await server.request('GET', `/v1/program-runs/${run.id}/evidence`, {
            key: owner.key,
          });
          expect(evidence.status).toBe(403);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a run id from one environment is 404 in the other even for the same account', async () => {
    const created = await server.request('POST', '/v1/program-runs', {
      key: LIVE_KEY,
      body: { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const run = (await created.json()) as { id: string };
    await expectNotFound(
      await server.request('GET', `/v1/program-runs/${run.id}`, { key: TEST_KEY }),
    );
    expect(
      (await server.request('GET', `/v1/program-runs/${run.id}`, { key: LIVE_KEY })).status,
    ).toBe(200);
  });
});
