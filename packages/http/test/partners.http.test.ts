// GET /v1/partners and the run's handoff overlay, through handler.handle: who may read it,
// its shape, that counts are the caller's account's own, and what a live run whose partner
// keeps failing shows (attempts, next call, last error, a degraded party).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, type HandoffConnector } from '@programrun/engine';
import { createHttpConnector } from '@programrun/webhooks';
import { keyFor } from './actors.js';
import { LIVE_KEY, OTHER_TEST_KEY, startTestServer, TEST_KEY, type TestServer } from './harness.js';

interface PartnerView {
  party: string;
  connector: string;
  concurrency: number | null;
  rate: number | null;
  max_per_account: number | null;
  in_flight: number;
  queued: number;
  accepted: number;
  exhausted: number;
  next_attempt_at: string | null;
  breaker: { status: string; consecutive_failures: number; retry_at: string | null };
  posture: string;
}

interface RunView {
  id: string;
  status: string;
  awaiting: {
    kind: string;
    step: string;
    party: string | null;
    handoff_job?: {
      status: string;
      attempts: number;
      next_attempt_at: string | null;
      last_error: { class: string; message: string; status: number | null; at: string } | null;
    };
  } | null;
  posture: { parties: { id: string; status: string }[] };
}

const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

let created = 0;
async function createWalletRun(server: TestServer, key: string): Promise<RunView> {
  const response = await server.request('POST', '/v1/program-runs', {
    key,
    body: { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
    headers: { 'idempotency-key': `partners-${(created += 1)}` },
  });
  expect(response.status).toBe(201);
  const run = (await response.json()) as RunView;
  // The first wait: chain analytics screens the destination.
  expect(run.awaiting).toMatchObject({ kind: 'handoff', step: 'screen_destination' });
  return run;
}

async function partnersOf(server: TestServer, key: string): Promise<PartnerView[]> {
  const response = await server.request('GET', '/v1/partners', { key });
  expect(response.status).toBe(200);
  const list = (await response.json()) as {
    object: string;
    url: string;
    data: PartnerView[];
    has_more: boolean;
  };
  expect(list).toMatchObject({ object: 'list', url: '/v1/partners', has_more: false });
  return list.data;
}

const partnerNamed = (partners: readonly PartnerView[], party: string) =>
  partners.find((partner) => partner.party === party);

describe('GET /v1/partners', () => {
  const calls: string[] = [];
  // A partner that takes every request and will answer through the callback.
  const accepting: HandoffConnector = (request) => {
    calls.push(request.account);
    return Promise.resolve('accepted');
  };
  let server: TestServer;
  let otherLiveKey: string;
  beforeAll(async () => {
    server = await startTestServer('handle', {
      connectors: {
        chain_analytics: { connector: accepting, concurrency: 4, rate: 10, maxPerAccount: 2 },
        custodian: accepting,
      },
    });
    otherLiveKey = (
      await server.accounts.apiKeys.create({ account: 'acct_two', environment: 'live' })
    ).secret;
  });
  afterAll(async () => {
    await server.close();
  });

  it('needs a key with runs:read', async () => {
    const anonymous = await server.request('GET', '/v1/partners', { key: null });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('unauthorized');
    const writer = await keyFor(server, 'ops:writer', ['runs:write'], 'live');
    const refused = await server.request('GET', '/v1/partners', { key: writer.secret });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="runs:read"');
    const reader = await keyFor(server, 'ops:reader', ['runs:read'], 'live');
    expect((await server.request('GET', '/v1/partners', { key: reader.secret })).status).toBe(200);
  });

  it("lists every configured party with its limits, counting only the caller's account's jobs", async () => {
    const before = await partnersOf(server, LIVE_KEY);
    expect(before.map((partner) => partner.party)).toEqual(['chain_analytics', 'custodian']);
    expect(partnerNamed(before, 'chain_analytics')).toEqual({
      party: 'chain_analytics',
      connector: 'custom',
      concurrency: 4,
      rate: 10,
      max_per_account: 2,
      in_flight: 0,
      queued: 0,
      accepted: 0,
      exhausted: 0,
      next_attempt_at: null,
      breaker: { status: 'closed', consecutive_failures: 0, retry_at: null },
      posture: 'ok',
    });
    expect(partnerNamed(before, 'custodian')).toMatchObject({
      connector: 'custom',
      concurrency: null,
      rate: null,
      max_per_account: null,
    });

    // Two live runs of acct_one and one of acct_two wait on chain analytics, not called yet.
    await createWalletRun(server, LIVE_KEY);
    await createWalletRun(server, LIVE_KEY);
    await createWalletRun(server, otherLiveKey);
    const mine = partnerNamed(await partnersOf(server, LIVE_KEY), 'chain_analytics')!;
    const theirs = partnerNamed(await partnersOf(server, otherLiveKey), 'chain_analytics')!;
    expect(mine).toMatchObject({ queued: 2, in_flight: 0, accepted: 0 });
    expect(mine.next_attempt_at).not.toBeNull();
    expect(theirs).toMatchObject({ queued: 1, in_flight: 0, accepted: 0 });

    // The workers call the partner, which accepts: each account sees its own accepted jobs.
    expect(await server.engine.runDueHandoffs('live')).toBe(3);
    expect(calls.sort()).toEqual(['acct_one', 'acct_one', 'acct_two']);
    expect(partnerNamed(await partnersOf(server, LIVE_KEY), 'chain_analytics')).toMatchObject({
      queued: 0,
      accepted: 2,
      next_attempt_at: null,
      breaker: { status: 'closed', consecutive_failures: 0 },
      posture: 'ok',
    });
    expect(partnerNamed(await partnersOf(server, otherLiveKey), 'chain_analytics')).toMatchObject({
      queued: 0,
      accepted: 1,
    });
  });

  it("in test, lists the simulated partners of the account's own open handoffs", async () => {
    expect(await partnersOf(server, TEST_KEY)).toEqual([]);
    await createWalletRun(server, TEST_KEY);
    const sandbox = await partnersOf(server, TEST_KEY);
    expect(sandbox).toEqual([
      expect.objectContaining({
        party: 'chain_analytics',
        connector: 'sandbox',
        concurrency: null,
        rate: null,
        max_per_account: null,
        queued: 1,
        posture: 'ok',
      }),
    ]);
    // Another account's test environment sees none of it.
    expect(await partnersOf(server, OTHER_TEST_KEY)).toEqual([]);
  });
});

describe('a live run whose partner keeps failing', () => {
  let partner: Server;
  let requests = 0;
  let server: TestServer;
  beforeAll(async () => {
    // A real partner on loopback that answers every handoff 503.
    partner = createServer((request, response) => {
      requests += 1;
      request.resume();
      request.on('end', () => response.writeHead(503).end('upstream unavailable'));
    });
    await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
    const { port } = partner.address() as AddressInfo;
    server = await startTestServer('handle', {
      connectors: {
        chain_analytics: {
          connector: createHttpConnector({
            url: `http://127.0.0.1:${port}/handoffs`,
            secret: generateWebhookSecret(),
            allowLoopback: true,
          }),
          // One failure opens the breaker: nothing more is called until it half-opens.
          breaker: { failureThreshold: 1, cooldownMs: 600_000 },
        },
      },
      handoffs: { retry: { initialMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => partner.close(() => resolve()));
  });

  it('shows the attempts, the next call and the last error, and the party degraded', async () => {
    const run = await createWalletRun(server, LIVE_KEY);
    expect(run.awaiting?.handoff_job).toEqual({
      status: 'queued',
      attempts: 0,
      next_attempt_at: expect.any(String) as string,
      last_error: null,
    });

    await server.engine.runDueHandoffs('live');
    expect(requests).toBe(1);

    const read = await server.request('GET', `/v1/program-runs/${run.id}`, { key: LIVE_KEY });
    expect(read.status).toBe(200);
    const waiting = (await read.json()) as RunView;
    expect(waiting.status).toBe('waiting');
    const job = waiting.awaiting?.handoff_job;
    expect(job).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: { class: 'http_5xx', status: 503 },
    });
    expect(Date.parse(job!.next_attempt_at!)).toBeGreaterThan(Date.parse(job!.last_error!.at));
    expect(waiting.posture.parties.find((party) => party.id === 'chain_analytics')?.status).toBe(
      'degraded',
    );

    const status = partnerNamed(await partnersOf(server, LIVE_KEY), 'chain_analytics');
    expect(status).toMatchObject({
      queued: 1,
      in_flight: 0,
      next_attempt_at: job!.next_attempt_at,
      breaker: { status: 'open', consecutive_failures: 1 },
      posture: 'degraded',
    });
    expect(status!.breaker.retry_at).not.toBeNull();

    // The call is in the run's records, with the handoff's key.
    const events = (await (
      await server.request('GET', `/v1/program-runs/${run.id}/events?limit=100`, {
        key: LIVE_KEY,
      })
    ).json()) as { data: { type: string; data: Record<string, unknown> }[] };
    const requested = events.data.find((record) => record.type === 'program_run.handoff.requested');
    const attempted = events.data.filter(
      (record) => record.type === 'program_run.handoff.attempted',
    );
    expect(attempted).toHaveLength(1);
    expect(attempted[0]!.data).toMatchObject({
      party: 'chain_analytics',
      attempt: 1,
      call: 1,
      outcome: 'retrying',
      error_class: 'http_5xx',
      status: 503,
      idempotency_key: requested!.data.idempotency_key,
      next_attempt_at: job!.next_attempt_at,
    });

    // A test run of the same account is simulated: its party is never degraded.
    const test = await createWalletRun(server, TEST_KEY);
    expect(test.posture.parties.find((party) => party.id === 'chain_analytics')?.status).toBe(
      'simulated',
    );
  });
});
