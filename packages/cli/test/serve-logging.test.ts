import { afterEach, describe, expect, it, vi } from 'vitest';
import { startReferenceServer } from '../src/serve/reference-server.js';
import { ROOT } from './run-bin.js';

// The reference server logs every 5xx (stderr, the handler's default) and, with
// `--access-log`, one JSON line per request on stdout.

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the reference server’s logs', () => {
  it('writes one access line per request with --access-log, none without', async () => {
    const lines = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    for (const accessLog of [true, false]) {
      const server = await startReferenceServer({
        port: 0,
        host: '127.0.0.1',
        scenarioDirectory: `${ROOT}packages/cli/test/fixtures/serve`,
        environment: { PROGRAMRUN_STORE: 'memory' },
        accessLog,
      });
      try {
        const listed = await fetch(`${server.url}/v1/scenarios?limit=1`, {
          headers: { authorization: `Bearer ${server.testKey}` },
        });
        expect(listed.status).toBe(200);
        const hostile = await fetch(`${server.url}/v1/program-runs/prun_%00`, {
          headers: { authorization: `Bearer ${server.testKey}` },
        });
        expect(hostile.status).toBe(422);
        const entries = lines.mock.calls.map(([line]) => JSON.parse(String(line)) as object);
        expect(entries).toEqual(
          accessLog
            ? [
                expect.objectContaining({
                  method: 'GET',
                  path: '/v1/scenarios',
                  status: 200,
                  account: 'acct_demo',
                  request_id: listed.headers.get('request-id'),
                }),
                expect.objectContaining({
                  path: '/v1/program-runs/prun_%00',
                  status: 422,
                  request_id: hostile.headers.get('request-id'),
                }),
              ]
            : [],
        );
      } finally {
        await server.close();
        lines.mockClear();
      }
    }
  });
});
