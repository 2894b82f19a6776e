// GET /v1/program-runs/{id}/stream over real sockets, read with fetch and a stream reader
// as the console reads it: the first event at once, each change right after its commit
// (this host) or within a poll (another host sharing the store), keep-alives, the end after
// a final run, a time limit or a drain, the per-credential limit, and a client that goes
// away releasing everything the stream held.
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  type Accounts,
  type Engine,
  type Scope,
} from '@programrun/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler, type ApiHandler, type HandlerOptions } from '../src/index.js';
import { ADAPTERS, createTestHandler, LIVE_KEY, OTHER_TEST_KEY, TEST_KEY } from './harness.js';
import { listen, type Adapter } from './adapter-servers.js';
import { readEventStream, type EventStreamReader } from './event-stream-reader.js';

const scope: Scope = { account: 'acct_one', environment: 'test' };
const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};
const approve = {
  step: 'release_approval',
  decision: 'approve',
  approver: 'ops:ana',
} as const;

/** What a test host counts: live run watchers and run reads (the stream's polls). */
interface Counters {
  watchers: number;
  reads: number;
}

/** An engine whose run watchers and reads are counted. */
function counted(engine: Engine, counters: Counters): Engine {
  return {
    ...engine,
    getRun: (...args) => {
      counters.reads += 1;
      return engine.getRun(...args);
    },
    watchRun: (...args) => {
      counters.watchers += 1;
      const stop = engine.watchRun(...args);
      let stopped = false;
      return () => {
        if (!stopped) counters.watchers -= 1;
        stopped = true;
        stop();
      };
    },
  };
}

interface Host {
  readonly baseUrl: string;
  readonly engine: Engine;
  readonly accounts: Accounts;
  readonly handler: ApiHandler;
  readonly counters: Counters;
  /** A request with the test key (unless another is given), its answer parsed. */
  call(
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Opens a stream with fetch. */
  open(runId: string, key?: string): Promise<Response>;
  close(): Promise<void>;
}

const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

async function startHost(
  options: {
    adapter?: Adapter;
    handler?: Partial<HandlerOptions>;
    store?: ReturnType<typeof createMemoryStore>;
    testClock?: ReturnType<typeof createVirtualClock>;
  } = {},
): Promise<Host> {
  const created = await createTestHandler(
    {},
    {
      ...(options.store ? { store: options.store } : {}),
      ...(options.testClock ? { testClock: options.testClock } : {}),
    },
  );
  const counters: Counters = { watchers: 0, reads: 0 };
  const engine = counted(created.engine, counters);
  const handler = createHandler({
    engine,
    accounts: created.accounts,
    rateLimit: { requestsPerSecond: 100_000, burst: 100_000 },
    failedAuthenticationLimit: { requestsPerSecond: 100_000, burst: 100_000 },
    ...options.handler,
  });
  const server = await listen(options.adapter ?? 'node', handler);
  const host: Host = {
    baseUrl: server.baseUrl,
    engine: created.engine,
    accounts: created.accounts,
    handler,
    counters,
    async call(method, path, body, key = TEST_KEY) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(method === 'POST' && path === '/v1/program-runs'
            ? { 'idempotency-key': crypto.randomUUID() }
            : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : {} };
    },
    open: (runId, key = TEST_KEY) =>
      fetch(`${server.baseUrl}/v1/program-runs/${runId}/stream`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    async close() {
      handler.closeStreams();
      // Once the streams' responses have ended, their connections are idle and close at once.
      await eventually(() => counters.watchers === 0);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await server.close();
    },
  };
  hosts.push(host);
  return host;
}

/** Creates a wallet-delivery run (waiting on its screening handoff); returns its id. */
async function createRun(host: Host, key = TEST_KEY): Promise<string> {
  const created = await host.call(
    'POST',
    '/v1/program-runs',
    { scenario_id: 'wallet-delivery@v1', inputs: walletInputs },
    key,
  );
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** A run waiting on its release approval: the simulated screening answered. */
async function runAwaitingApproval(host: Host): Promise<string> {
  const id = await createRun(host);
  expect((await host.call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 })).status).toBe(
    200,
  );
  expect((await host.call('GET', `/v1/program-runs/${id}`)).body.awaiting).toMatchObject({
    step: 'release_approval',
  });
  return id;
}

/**
 * A client that reads the stream over a plain socket and can go away at once (destroying
 * it, as a closed browser tab does); fetch's abort leaves the test server a spare
 * connection that would hold its close.
 */
function rawClient(host: Host, runId: string, key = TEST_KEY) {
  return new Promise<{ status: number; first: Promise<string>; leave: () => void }>(
    (resolve, reject) => {
      const request = get(
        `${host.baseUrl}/v1/program-runs/${runId}/stream`,
        { headers: { authorization: `Bearer ${key}` } },
        (response) => {
          let text = '';
          const first = new Promise<string>((firstEvent) => {
            response.on('data', (chunk: Buffer) => {
              text += chunk.toString('utf8');
              if (text.includes('\n\n')) firstEvent(text.slice(0, text.indexOf('\n\n')));
            });
          });
          response.on('error', () => undefined);
          resolve({ status: response.statusCode ?? 0, first, leave: () => request.destroy() });
        },
      );
      request.on('error', reject);
    },
  );
}

/** Waits until `check` holds (polling every 10 ms), or fails after `ms`. */
async function eventually(check: () => boolean, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function openReader(host: Host, runId: string): Promise<EventStreamReader> {
  const response = await host.open(runId);
  expect(response.status).toBe(200);
  return readEventStream(response);
}

describe('GET /v1/program-runs/{id}/stream', () => {
  it('sends the run at once as `event: run`, with no-store and its updated_at as id', async () => {
    const host = await startHost();
    const id = await createRun(host);
    const started = performance.now();
    const response = await host.open(id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const events = readEventStream(response);
    const first = await events.next(1_000);
    expect(performance.now() - started).toBeLessThan(1_000);
    const current = (await host.call('GET', `/v1/program-runs/${id}`)).body;
    expect(first).toEqual({ event: 'run', id: current.updated_at, data: JSON.stringify(current) });
  });

  it('sends each change right after this host commits it, never an unchanged run', async () => {
    // Polls are an hour apart: only the commit can wake the stream.
    const host = await startHost({ handler: { streams: { pollIntervalMs: 3_600_000 } } });
    const id = await createRun(host);
    const events = await openReader(host, id);
    const first = await events.nextRun(1_000);

    const advanced = performance.now();
    await host.call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 });
    const answered = await events.nextRun(1_000);
    expect(performance.now() - advanced).toBeLessThan(1_000);
    expect(answered).not.toBe('end');
    if (first === 'end' || answered === 'end') return;
    expect(answered.run.awaiting).toMatchObject({ step: 'release_approval' });
    expect(answered.id).toBe(answered.run.updated_at);
    expect(answered.id).not.toBe(first.id);

    const approved = performance.now();
    expect((await host.call('POST', `/v1/program-runs/${id}/approvals`, approve)).status).toBe(200);
    const next = await events.nextRun(1_000);
    expect(performance.now() - approved).toBeLessThan(1_000);
    if (next === 'end') throw new Error('the stream ended');
    expect(next.run).toEqual((await host.call('GET', `/v1/program-runs/${id}`)).body);
    expect(next.id).toBe(next.run.updated_at);

    // A refused signal changes nothing: nothing is sent.
    const refused = await host.call('POST', `/v1/program-runs/${id}/approvals`, {
      ...approve,
      step: 'amount_gate',
    });
    expect(refused.status).toBe(409);
    await expect(events.nextRun(300)).rejects.toThrow(/no event/);
  });

  it('sends changes another host sharing the store committed within a second', async () => {
    const store = createMemoryStore();
    const testClock = createVirtualClock('2026-03-02T09:00:00.000Z');
    const host = await startHost({ store, testClock });
    const otherHost = createEngine({
      store,
      testClock,
      scenarios: await loadCatalogue(
        fileURLToPath(new URL('../../../scenarios/', import.meta.url)),
      ),
    });
    const id = await runAwaitingApproval(host);
    const events = await openReader(host, id);
    await events.nextRun(1_000);
    const signalled = performance.now();
    await otherHost.signal(scope, id, { kind: 'approval', ...approve });
    const next = await events.nextRun(2_000);
    // One poll (1 s by default) and the read, with room for a slow machine.
    expect(performance.now() - signalled).toBeLessThan(1_500);
    if (next === 'end') throw new Error('the stream ended');
    expect(next.run.evidence).toEqual((await otherHost.getRun(scope, id)).evidence);
  });

  it('sends a keep-alive comment when nothing changes', async () => {
    const host = await startHost({ handler: { streams: { keepAliveMs: 50 } } });
    const events = await openReader(host, await createRun(host));
    await events.next(1_000);
    expect(await events.next(1_000)).toEqual({ comment: 'keep-alive' });
    expect(await events.next(1_000)).toEqual({ comment: 'keep-alive' });
  });

  it('ends after sending a final run, and at once for a run already final', async () => {
    const host = await startHost();
    const id = await runAwaitingApproval(host);
    const events = await openReader(host, id);
    await events.nextRun(1_000);
    expect((await host.call('POST', `/v1/program-runs/${id}/cancel`, {})).status).toBe(200);
    const last = await events.nextRun(1_000);
    expect(last !== 'end' && last.run.status).toBe('cancelled');
    expect(await events.next(1_000)).toBe('end');
    await eventually(() => host.counters.watchers === 0);

    const again = await openReader(host, id);
    const only = await again.nextRun(1_000);
    expect(only !== 'end' && only.run.status).toBe('cancelled');
    expect(await again.next(1_000)).toBe('end');
  });

  it('ends after its time limit', async () => {
    const host = await startHost({ handler: { streams: { maxDurationMs: 200 } } });
    const events = await openReader(host, await createRun(host));
    const opened = performance.now();
    await events.nextRun(1_000);
    expect(await events.next(2_000)).toBe('end');
    expect(performance.now() - opened).toBeGreaterThanOrEqual(150);
    await eventually(() => host.counters.watchers === 0);
  });

  it('answers 404 for a run of another account or environment, before any stream opens', async () => {
    const host = await startHost();
    const id = await createRun(host);
    for (const key of [OTHER_TEST_KEY, LIVE_KEY]) {
      const response = await host.open(id, key);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({ code: 'run_not_found' });
    }
    expect((await host.open('prun_missing')).status).toBe(404);
    expect(host.counters.watchers).toBe(0);
  });

  it('holds at most 10 streams per credential: the 11th is 429 too_many_streams until one closes', async () => {
    const host = await startHost();
    const id = await createRun(host);
    const leaving = await rawClient(host, id);
    const open = await Promise.all(Array.from({ length: 9 }, () => host.open(id)));
    expect([leaving.status, ...open.map((response) => response.status)]).toEqual(
      Array(10).fill(200),
    );

    const refused = await host.open(id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(250);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(await refused.json()).toMatchObject({ code: 'too_many_streams', status: 429 });

    // Another credential of the same account has its own streams.
    const { secret } = await host.accounts.apiKeys.create({
      account: 'acct_one',
      environment: 'test',
    });
    expect((await host.open(id, secret)).status).toBe(200);

    await leaving.first;
    leaving.leave();
    await eventually(() => host.counters.watchers === 10);
    expect((await host.open(id)).status).toBe(200);
  });

  it('releases its watcher, polls and slot when the client goes away', async () => {
    const host = await startHost({
      handler: { streams: { pollIntervalMs: 20, keepAliveMs: 20, maxPerCredential: 1 } },
    });
    const id = await createRun(host);
    const client = await rawClient(host, id);
    expect(client.status).toBe(200);
    expect(await client.first).toMatch(/^event: run\n/);
    expect(host.counters.watchers).toBe(1);
    await eventually(() => host.counters.reads > 3);
    client.leave();
    await eventually(() => host.counters.watchers === 0);
    const reads = host.counters.reads;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // No poll ran since: its timers are gone.
    expect(host.counters.reads).toBe(reads);
    // Its one slot is free again.
    expect((await host.open(id)).status).toBe(200);
  });

  it('ends every stream at once when the handler closes them (a draining server)', async () => {
    const host = await startHost();
    const ids = [await createRun(host), await createRun(host)];
    const readers = await Promise.all(ids.map((id) => openReader(host, id)));
    for (const reader of readers) await reader.nextRun(1_000);
    const closing = performance.now();
    host.handler.closeStreams();
    for (const reader of readers) expect(await reader.next(1_000)).toBe('end');
    expect(performance.now() - closing).toBeLessThan(500);
    await eventually(() => host.counters.watchers === 0);
    // A stream opened while draining sends the run, then ends.
    const late = await openReader(host, ids[0]!);
    expect(await late.nextRun(1_000)).not.toBe('end');
    expect(await late.next(1_000)).toBe('end');
  });

  it('is logged once and counted once against the rate limit', async () => {
    const access: { route: string | null; status: number }[] = [];
    let taken = 0;
    const host = await startHost({
      handler: {
        streams: { keepAliveMs: 20, pollIntervalMs: 20 },
        onAccess: (entry) => access.push({ route: entry.route, status: entry.status }),
        rateLimit: {
          take: () => {
            taken += 1;
            return { allowed: true, retryAfterSeconds: 0 };
          },
        },
      },
    });
    const id = await createRun(host);
    const [takenBefore, loggedBefore] = [taken, access.length];
    const events = await openReader(host, id);
    await events.nextRun(1_000);
    for (let index = 0; index < 3; index += 1) await events.next(1_000);
    host.handler.closeStreams();
    expect(await events.nextRun(1_000)).toBe('end');
    expect(taken - takenBefore).toBe(1);
    expect(access.slice(loggedBefore)).toEqual([
      { route: '/v1/program-runs/{id}/stream', status: 200 },
    ]);
  });
});

describe.each(ADAPTERS)('the stream through the %s adapter', (adapter) => {
  it('streams the first event and each change as it comes, and lets go when the client leaves', async () => {
    const host = await startHost({ adapter });
    const id = await createRun(host);
    const client = await rawClient(host, id);
    expect(await client.first).toMatch(/^event: run\n/);
    expect(host.counters.watchers).toBe(1);
    client.leave();
    await eventually(() => host.counters.watchers === 0);

    const response = await host.open(id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = readEventStream(response);
    expect(await events.nextRun(1_000)).not.toBe('end');
    await host.call('POST', '/v1/test_helpers/clock/advance', { seconds: 60 });
    const changed = await events.nextRun(1_000);
    expect(changed !== 'end' && changed.run.awaiting).toMatchObject({ step: 'release_approval' });
    host.handler.closeStreams();
    expect(await events.nextRun(1_000)).toBe('end');
  });
});
