// The reference server's log settings (PROGRAMRUN_LOG_LEVEL, NODE_ENV=test, --access-log) and
// how its pino logger writes the handler's access and error entries.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccessLogEntry, ErrorLogEntry } from '@programrun/http';
import { logSettings } from '../src/serve/log-settings.js';
import { createServerLogger } from '../src/serve/server-logger.js';
import { UsageError } from '../src/usage-error.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const access: AccessLogEntry = {
  level: 'info',
  message: 'request',
  request_id: 'req_1',
  method: 'GET',
  path: '/v1/scenarios',
  route: '/v1/scenarios',
  status: 200,
  duration_ms: 3,
  account: 'acct_demo',
  credential_id: 'key_123',
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
};
const failure: ErrorLogEntry = {
  level: 'error',
  message: 'request failed',
  request_id: 'req_2',
  method: 'POST',
  path: '/v1/program-runs',
  route: '/v1/program-runs',
  status: 500,
  code: 'internal_error',
  trace_id: null,
  error: { name: 'StoreError', message: 'store unavailable', cause: 'Error: connect ECONNREFUSED' },
};

/** What the logger wrote on stdout and stderr, as parsed lines. */
function capture() {
  const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const parsed = (spy: typeof out) =>
    spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
  return { out: () => parsed(out), err: () => parsed(err) };
}

describe('the reference server’s log settings', () => {
  it('defaults to info, to silent under NODE_ENV=test, and honours the variable over both', () => {
    expect(logSettings({ NODE_ENV: 'production' }, false)).toEqual({
      level: 'info',
      accessLevel: 'info',
    });
    expect(logSettings({ NODE_ENV: 'test' }, false)).toEqual({
      level: 'silent',
      accessLevel: 'silent',
    });
    expect(logSettings({ NODE_ENV: 'test', PROGRAMRUN_LOG_LEVEL: 'debug' }, false)).toEqual({
      level: 'debug',
      accessLevel: 'debug',
    });
    // --access-log keeps request lines at info whatever hides the others.
    expect(logSettings({ NODE_ENV: 'test' }, true)).toEqual({
      level: 'silent',
      accessLevel: 'info',
    });
    expect(logSettings({ PROGRAMRUN_LOG_LEVEL: 'error' }, true)).toEqual({
      level: 'error',
      accessLevel: 'info',
    });
    expect(logSettings({ PROGRAMRUN_LOG_LEVEL: 'trace' }, true)).toEqual({
      level: 'trace',
      accessLevel: 'trace',
    });
    expect(() => logSettings({ PROGRAMRUN_LOG_LEVEL: 'verbose' }, false)).toThrow(UsageError);
  });

  it('writes one JSON line per request on stdout and one per 5xx, with its cause, on stderr', () => {
    const lines = capture();
    const logs = createServerLogger({ level: 'info', accessLevel: 'info' });
    logs.onAccess(access);
    logs.onError(failure, new Error('store unavailable'));
    logs.backgroundError('scheduler')(new Error('tick failed'));
    // The entry as it was given, plus what pino adds to every line.
    expect(lines.out()).toEqual([
      {
        ...access,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        pid: process.pid,
        hostname: expect.any(String),
      },
    ]);
    expect(lines.err()).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'request failed',
        request_id: 'req_2',
        status: 500,
        code: 'internal_error',
        error: failure.error,
      }),
      expect.objectContaining({
        level: 'error',
        message: 'scheduler failed',
        component: 'scheduler',
        err: expect.objectContaining({ message: 'tick failed' }),
      }),
    ]);
  });

  it('writes nothing when silent, and only the request lines with --access-log', () => {
    const lines = capture();
    createServerLogger({ level: 'silent', accessLevel: 'silent' }).onAccess(access);
    const accessOnly = createServerLogger({ level: 'silent', accessLevel: 'info' });
    accessOnly.onAccess(access);
    accessOnly.onError(failure, undefined);
    expect(lines.out()).toEqual([expect.objectContaining({ request_id: 'req_1' })]);
    expect(lines.err()).toEqual([]);
  });
});
