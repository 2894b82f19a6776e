// GET /healthz and GET /readyz: public probes outside /v1, never rate-limited nor counted
// as failed authentications; readiness from engine.readiness() (store, migrations,
// background workers), 503 not_ready with the checks when one fails.
import { describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  generateApiKey,
  startScheduler,
  type StoreV1,
} from '@programrun/engine';
import { createWebhookDispatcher } from '@programrun/webhooks';
import {
  createHandler,
  type AccessLogEntry,
  type ErrorLogEntry,
  type Handler,
  type HandlerOptions,
} from '../src/index.js';
import { listen } from './adapter-servers.js';
import { createTestHandler, TEST_KEY } from './harness.js';
import { checkResponseAgainstOpenApi } from './openapi-conformance.js';

const READY = {
  status: 'ready',
  checks: {
    store: { status: 'ok' },
    migrations: { status: 'current', schema_version: null, expected_version: null },
    background: { status: 'running', workers: {} },
  },
};

/** Sends a probe (or any GET), checks it against the OpenAPI document, returns its body. */
async function probe(handler: Handler, path: string, headers: Record<string, string> = {}) {
  const response = await handler.handle(new Request(`http://programrun.test${path}`, { headers }));
  const bodyText = await response.text();
  expect(
    checkResponseAgainstOpenApi('GET', path, {
      status: response.status,
      headers: response.headers,
      bodyText,
    }),
  ).toEqual([]);
  return {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(bodyText) as Record<string, unknown>,
  };
}

const quiet: Partial<HandlerOptions> = { onError: false };

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} without credentials, never cached', async () => {
    const { handler } = await createTestHandler(quiet);
    const answer = await probe(handler, '/healthz');
    expect(answer).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('request-id')).toMatch(/^req_/);
  });

  it('answers while the store is down: the process is alive', async () => {
    const store = createMemoryStore();
    const { handler } = await createTestHandler(quiet, { store });
    await store.close();
    expect((await probe(handler, '/healthz')).status).toBe(200);
    expect((await probe(handler, '/readyz')).status).toBe(503);
  });

  it('is served over a socket by the node adapter', async () => {
    const { handler } = await createTestHandler(quiet);
    const listening = await listen('node', handler);
    try {
      const [health, ready] = await Promise.all([
        fetch(`${listening.baseUrl}/healthz`),
        fetch(`${listening.baseUrl}/readyz`),
      ]);
      expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
      expect([ready.status, await ready.json()]).toEqual([200, READY]);
    } finally {
      await listening.close();
    }
  });
});

describe('GET /readyz', () => {
  it('answers 200 with the checks when the store answers and nothing stopped', async () => {
    const { handler } = await createTestHandler(quiet);
    const answer = await probe(handler, '/readyz');
    expect(answer).toEqual({ status: 200, headers: expect.any(Headers), body: READY });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 not_ready with the checks when the store is unreachable, logged once each', async () => {
    const store = createMemoryStore();
    const errors: ErrorLogEntry[] = [];
    const { handler } = await createTestHandler(
      { onError: (entry) => errors.push(entry) },
      { store },
    );
    await store.close();
    const answer = await probe(handler, '/readyz');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.body).toEqual({
      type: 'https://programrun.dev/problems/not_ready',
      title: 'Not ready',
      status: 503,
      detail: 'This host is not ready (store unreachable).',
      code: 'not_ready',
      request_id: answer.headers.get('request-id'),
      errors: [],
      checks: {
        store: { status: 'unreachable' },
        migrations: { status: 'unknown', schema_version: null, expected_version: null },
        background: { status: 'running', workers: {} },
      },
    });
    expect(errors).toEqual([
      expect.objectContaining({
        request_id: answer.headers.get('request-id'),
        path: '/readyz',
        route: '/readyz',
        status: 503,
        code: 'not_ready',
      }),
    ]);
  });

  it('turns not ready when a background worker stops, and ready when one of its name runs again', async () => {
    const { handler, engine } = await createTestHandler(quiet);
    const scheduler = startScheduler(engine, { intervalMs: 60_000, onError: () => undefined });
    const dispatcher = createWebhookDispatcher(engine, { pollIntervalMs: 60_000 });
    dispatcher.start();
    const running = await probe(handler, '/readyz');
    expect(running.status).toBe(200);
    expect(running.body.checks).toMatchObject({
      background: {
        status: 'running',
        workers: {
          scheduler: 'running',
          'handoff-workers': 'running',
          'webhook-dispatcher': 'running',
        },
      },
    });
    await scheduler.stop();
    const stopped = await probe(handler, '/readyz');
    expect(stopped.status).toBe(503);
    expect(stopped.body).toMatchObject({
      code: 'not_ready',
      detail: 'This host is not ready (stopped: scheduler, handoff-workers).',
      checks: {
        store: { status: 'ok' },
        background: {
          status: 'stopped',
          workers: {
            scheduler: 'stopped',
            'handoff-workers': 'stopped',
            'webhook-dispatcher': 'running',
          },
        },
      },
    });
    const again = startScheduler(engine, { intervalMs: 60_000, onError: () => undefined });
    expect((await probe(handler, '/readyz')).status).toBe(200);
    await dispatcher.stop();
    expect((await probe(handler, '/readyz')).body.checks).toMatchObject({
      background: { status: 'stopped', workers: { 'webhook-dispatcher': 'stopped' } },
    });
    await again.stop();
  });
});

describe('the probes', () => {
  it('are never rate-limited, and cost no credential its tokens', async () => {
    const { handler } = await createTestHandler({
      ...quiet,
      rateLimit: { requestsPerSecond: 0.001, burst: 2 },
    });
    const key = { authorization: `Bearer ${TEST_KEY}` };
    for (let request = 0; request < 50; request += 1) {
      expect((await probe(handler, '/healthz', key)).status).toBe(200);
      expect((await probe(handler, '/readyz', key)).status).toBe(200);
    }
    // The key's burst of 2 is whole: the probes took nothing from it.
    const scenarios = () =>
      handler.handle(new Request('http://programrun.test/v1/scenarios', { headers: key }));
    expect([(await scenarios()).status, (await scenarios()).status]).toEqual([200, 200]);
    expect((await scenarios()).status).toBe(429);
    expect((await probe(handler, '/readyz', key)).status).toBe(200);
  });

  it('are not failed authentications, whatever credentials they carry', async () => {
    const { handler } = await createTestHandler({
      ...quiet,
      failedAuthenticationLimit: { requestsPerSecond: 0.001, burst: 1 },
    });
    const guessed = { authorization: `Bearer ${generateApiKey('test')}` };
    for (let request = 0; request < 20; request += 1) {
      expect((await probe(handler, '/healthz', guessed)).status).toBe(200);
      expect((await probe(handler, '/readyz', guessed)).status).toBe(200);
    }
    const scenarios = () =>
      handler.handle(new Request('http://programrun.test/v1/scenarios', { headers: guessed }));
    // The one failure allowed is still there; the next is limited.
    expect((await scenarios()).status).toBe(401);
    expect((await scenarios()).status).toBe(429);
    expect((await probe(handler, '/healthz', guessed)).status).toBe(200);
  });

  it('are logged with their route, without account or credential', async () => {
    const access: AccessLogEntry[] = [];
    const { handler } = await createTestHandler({ onAccess: (entry) => access.push(entry) });
    await probe(handler, '/healthz', { authorization: `Bearer ${TEST_KEY}` });
    await probe(handler, '/readyz');
    expect(
      access.map(({ route, status, account, credential_id }) => [
        route,
        status,
        account,
        credential_id,
      ]),
    ).toEqual([
      ['/healthz', 200, null, null],
      ['/readyz', 200, null, null],
    ]);
  });

  it('refuse other methods with 405, and live outside /v1 only', async () => {
    const { handler } = await createTestHandler(quiet);
    const send = (method: string, path: string) =>
      handler.handle(new Request(`http://programrun.test${path}`, { method }));
    expect((await send('POST', '/healthz')).status).toBe(405);
    expect((await send('DELETE', '/readyz')).headers.get('allow')).toBe('GET');
    expect((await send('GET', '/v1/healthz')).status).toBe(404);
    expect((await send('GET', '/healthz/')).status).toBe(200);
  });
});

describe('readiness failures of the engine itself', () => {
  it('answer 500 internal_error when engine.readiness throws', async () => {
    const { engine } = await createTestHandler(quiet);
    const broken = createHandler({
      engine: { ...engine, readiness: () => Promise.reject(new Error('boom')) },
      authenticate: () => null,
      onError: false,
    });
    const answer = await probe(broken, '/readyz');
    expect(answer).toMatchObject({ status: 500, body: { code: 'internal_error' } });
  });

  it('keep a store that never answers bounded', async () => {
    const inner = createMemoryStore();
    const hanging: StoreV1 = { ...inner, transaction: () => new Promise(() => undefined) };
    const { engine } = await createTestHandler(quiet, { store: hanging });
    const started = Date.now();
    const readiness = await engine.readiness({ timeoutMs: 50 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(readiness).toEqual({
      ready: false,
      checks: {
        store: { status: 'timeout' },
        migrations: { status: 'unknown', schema_version: null, expected_version: null },
        background: { status: 'running', workers: {} },
      },
    });
  });
});
