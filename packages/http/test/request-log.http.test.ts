import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CompiledScenario } from '@programrun/dsl';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, createMemoryStore, type StoreV1 } from '@programrun/engine';
import {
  consoleAccessLog,
  createHandler,
  type AccessLogEntry,
  type ErrorLogEntry,
  type HandlerOptions,
  type RequestLogger,
} from '../src/index.js';

// Every 5xx is logged with its request id (what was thrown stays out of the answer), and
// an access log, off by default, gets one line per request.

let scenarios: CompiledScenario[];
beforeAll(async () => {
  scenarios = await loadCatalogue(fileURLToPath(new URL('../../../scenarios/', import.meta.url)));
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A memory store whose run list fails like a broken disk. */
function brokenStore(): StoreV1 {
  const inner = createMemoryStore();
  return {
    ...inner,
    transaction: (work) =>
      inner.transaction((tx) =>
        work({
          ...tx,
          listRuns: () => Promise.reject(new Error('disk on fire', { cause: new Error('EIO') })),
        }),
      ),
  };
}

function handlerWith(options: Partial<HandlerOptions> = {}) {
  return createHandler({
    engine: createEngine({ store: brokenStore(), scenarios }),
    authenticate: (request) =>
      request.headers.get('authorization') === 'Bearer good'
        ? { account: 'acct_log', environment: 'test', credentialId: 'cred_1' }
        : null,
    rateLimit: false,
    ...options,
  });
}

const get = (path: string, key: string | null = 'good') =>
  new Request(`http://programrun.test${path}`, {
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
  });

describe('the error log', () => {
  it('gets every 5xx once, with its request id, route, code and what was thrown', async () => {
    const entries: [ErrorLogEntry, unknown][] = [];
    const handler = handlerWith({ onError: (entry, error) => entries.push([entry, error]) });
    const response = await handler.handle(get('/v1/program-runs?limit=5'));
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).not.toContain('disk on fire');
    expect(entries).toHaveLength(1);
    const [entry, error] = entries[0]!;
    expect(entry).toMatchObject({
      level: 'error',
      message: 'request failed',
      request_id: response.headers.get('request-id'),
      method: 'GET',
      path: '/v1/program-runs',
      route: '/v1/program-runs',
      status: 500,
      // No SDK is registered here: the request has no trace.
      trace_id: null,
      code: 'internal_error',
      error: { name: 'Error', message: 'disk on fire', cause: 'Error: EIO' },
    });
    expect(entry.error?.stack).toContain('disk on fire');
    expect((error as Error).message).toBe('disk on fire');
    // Answers below 500 are not errors of the server.
    expect((await handler.handle(get('/v1/program-runs/nope'))).status).toBe(404);
    expect((await handler.handle(get('/v1/scenarios', 'bad'))).status).toBe(401);
    expect(entries).toHaveLength(1);
  });

  it('logs a hook that throws before any route, too', async () => {
    const entries: ErrorLogEntry[] = [];
    const handler = handlerWith({
      authenticate: () => {
        throw new Error('identity provider down');
      },
      onError: (entry) => entries.push(entry),
    });
    const response = await handler.handle(get('/v1/scenarios'));
    expect(response.status).toBe(500);
    expect(entries.map((entry) => [entry.request_id, entry.error?.message])).toEqual([
      [response.headers.get('request-id'), 'identity provider down'],
    ]);
  });

  it('is one JSON line on console.error by default, and off with onError: false', async () => {
    const errorLine = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await handlerWith().handle(get('/v1/program-runs'));
    expect(errorLine).toHaveBeenCalledTimes(1);
    const line = String(errorLine.mock.calls[0]![0]);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toMatchObject({
      request_id: response.headers.get('request-id'),
      status: 500,
      code: 'internal_error',
    });
    await handlerWith({ onError: false }).handle(get('/v1/program-runs'));
    expect(errorLine).toHaveBeenCalledTimes(1);
  });

  it('never changes the answer when the logger itself throws', async () => {
    const handler = handlerWith({
      onError: () => {
        throw new Error('log sink full');
      },
      onAccess: () => {
        throw new Error('log sink full');
      },
    });
    const response = await handler.handle(get('/v1/program-runs'));
    expect(response.status).toBe(500);
    expect((await handler.handle(get('/v1/scenarios'))).status).toBe(200);
  });
});

describe('the access log', () => {
  it('is off by default', async () => {
    const infoLine = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await handlerWith().handle(get('/v1/scenarios'));
    expect(infoLine).not.toHaveBeenCalled();
  });

  it('gets one entry per request: method, path, route, status, duration, request id, account, credential, trace', async () => {
    const entries: AccessLogEntry[] = [];
    const handler = handlerWith({ onAccess: (entry) => entries.push(entry), onError: false });
    const answers = [
      await handler.handle(get('/v1/scenarios?secret=not-logged')),
      await handler.handle(get('/v1/scenarios', 'bad')),
      await handler.handle(get('/v1/openapi.json', null)),
      await handler.handle(get('/v1/program-runs')),
      await handler.handle(get('/v1/scenarios/wallet-delivery@v1')),
      await handler.handle(get('/v1/nowhere')),
    ];
    expect(entries.map(({ duration_ms: _duration, ...entry }) => entry)).toEqual(
      [
        ['/v1/scenarios', '/v1/scenarios', 200, 'acct_log'],
        ['/v1/scenarios', '/v1/scenarios', 401, null],
        ['/v1/openapi.json', '/v1/openapi.json', 200, null],
        ['/v1/program-runs', '/v1/program-runs', 500, 'acct_log'],
        ['/v1/scenarios/wallet-delivery@v1', '/v1/scenarios/{id}', 200, 'acct_log'],
        ['/v1/nowhere', null, 404, null],
      ].map(([path, route, status, account], index) => ({
        level: 'info',
        message: 'request',
        request_id: answers[index]!.headers.get('request-id'),
        method: 'GET',
        path,
        route,
        status,
        account,
        // The credential's id, never its secret; none when refused or public.
        credential_id: account === null ? null : 'cred_1',
        // No SDK is registered here: no trace.
        trace_id: null,
      })),
    );
    expect(JSON.stringify(entries)).not.toContain('not-logged');
    expect(JSON.stringify(entries)).not.toContain('Bearer');
    for (const entry of entries) expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('writes JSON lines on console.log with consoleAccessLog', async () => {
    const infoLine = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await handlerWith({ onAccess: consoleAccessLog }).handle(get('/v1/scenarios'));
    expect(infoLine).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(infoLine.mock.calls[0]![0]))).toMatchObject({
      method: 'GET',
      path: '/v1/scenarios',
      status: 200,
      account: 'acct_log',
    });
  });
});

describe('the logger option', () => {
  /** A real pino logger writing JSON lines to memory. */
  function pinoRecorder() {
    const raw: string[] = [];
    const logger = pino({ base: null, timestamp: false }, { write: (line) => void raw.push(line) });
    return {
      logger,
      raw,
      lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>),
    };
  }

  it('gets every request at info and every 5xx at error, in place of console.error', async () => {
    const errorLine = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const infoLine = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const recorder = pinoRecorder();
    const handler = handlerWith({ logger: recorder.logger });
    const ok = await handler.handle(get('/v1/scenarios'));
    const failed = await handler.handle(get('/v1/program-runs?limit=5'));
    expect(errorLine).not.toHaveBeenCalled();
    expect(infoLine).not.toHaveBeenCalled();
    const lines = recorder.lines();
    expect(lines).toEqual([
      {
        level: 30,
        msg: 'request',
        request_id: ok.headers.get('request-id'),
        method: 'GET',
        path: '/v1/scenarios',
        route: '/v1/scenarios',
        status: 200,
        duration_ms: expect.any(Number),
        account: 'acct_log',
        credential_id: 'cred_1',
        trace_id: null,
      },
      {
        level: 50,
        msg: 'request failed',
        request_id: failed.headers.get('request-id'),
        method: 'GET',
        path: '/v1/program-runs',
        route: '/v1/program-runs',
        status: 500,
        trace_id: null,
        code: 'internal_error',
        error: {
          name: 'Error',
          message: 'disk on fire',
          stack: expect.stringContaining('disk on fire'),
          cause: 'Error: EIO',
        },
      },
      expect.objectContaining({ level: 30, msg: 'request', status: 500 }),
    ]);
    // pino sets level and message itself: no key twice on a line, no secret on any.
    for (const line of recorder.raw) expect(line.match(/"level"/g)).toHaveLength(1);
    expect(recorder.raw.join('')).not.toContain('Bearer');
  });

  it('writes beside onAccess and onError, and a throwing logger changes no answer', async () => {
    const access: AccessLogEntry[] = [];
    const errors: ErrorLogEntry[] = [];
    const recorder = pinoRecorder();
    const handler = handlerWith({
      logger: recorder.logger,
      onAccess: (entry) => access.push(entry),
      onError: (entry) => errors.push(entry),
    });
    await handler.handle(get('/v1/program-runs'));
    expect([access.length, errors.length, recorder.lines().length]).toEqual([1, 1, 2]);
    const broken: RequestLogger = {
      info: () => {
        throw new Error('log sink full');
      },
      error: () => {
        throw new Error('log sink full');
      },
    };
    const resilient = handlerWith({ logger: broken, onAccess: (entry) => access.push(entry) });
    expect((await resilient.handle(get('/v1/program-runs'))).status).toBe(500);
    expect((await resilient.handle(get('/v1/scenarios'))).status).toBe(200);
    expect(access).toHaveLength(3);
  });

  it('keeps onError: false meaning no error callback, while the logger still gets 5xx', async () => {
    const errorLine = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const recorder = pinoRecorder();
    await handlerWith({ logger: recorder.logger, onError: false }).handle(get('/v1/program-runs'));
    expect(errorLine).not.toHaveBeenCalled();
    expect(recorder.lines().map((line) => line.level)).toEqual([50, 30]);
  });
});
