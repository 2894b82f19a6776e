// Failed authentications are limited per client: by its address when the transport knows
// it, else by the first characters of the token it presents.
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '@programrun/engine';
import type { Handler } from '../src/index.js';
import { listen } from './adapter-servers.js';
import { createTestHandler, OTHER_TEST_KEY, TEST_KEY } from './harness.js';

const tight = { failedAuthenticationLimit: { requestsPerSecond: 0.001, burst: 3 } };

const get = (handler: Handler, authorization?: string, headers: Record<string, string> = {}) =>
  handler.handle(
    new Request('http://programrun.test/v1/scenarios', {
      headers: { ...(authorization ? { authorization } : {}), ...headers },
    }),
  );

async function codeOf(response: Response) {
  return { status: response.status, code: ((await response.json()) as { code?: string }).code };
}

describe('failed authentications', () => {
  it('are limited by the presented token’s prefix when the client address is unknown', async () => {
    const { handler } = await createTestHandler(tight);
    const guessed = generateApiKey('test');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await codeOf(await get(handler, `Bearer ${guessed}`))).toEqual({
        status: 401,
        code: 'invalid_token',
      });
    }
    const limited = await get(handler, `Bearer ${guessed}`);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(await codeOf(limited)).toEqual({ status: 429, code: 'rate_limited' });
    // Other keys are other buckets, and nothing presented from nowhere costs nothing.
    expect((await get(handler, `Bearer ${TEST_KEY}`)).status).toBe(200);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await codeOf(await get(handler))).toEqual({ status: 401, code: 'unauthorized' });
    }
  });

  it('are limited per client address over a socket, before any key is looked up', async () => {
    const { handler } = await createTestHandler(tight);
    const listening = await listen('node', handler);
    const fetchScenarios = (authorization?: string) =>
      fetch(`${listening.baseUrl}/v1/scenarios`, {
        headers: authorization ? { authorization } : {},
      });
    try {
      for (const key of [generateApiKey('test'), generateApiKey('test'), generateApiKey('live')]) {
        expect((await fetchScenarios(`Bearer ${key}`)).status).toBe(401);
      }
      const limited = await fetchScenarios(`Bearer ${TEST_KEY}`);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await listening.close();
    }
  });

  it('use the address the host reports (clientAddress), and can be turned off', async () => {
    const { handler } = await createTestHandler({
      ...tight,
      clientAddress: (request) => request.headers.get('x-client'),
    });
    for (let attempt = 0; attempt < 3; attempt += 1)
      await get(handler, undefined, { 'x-client': 'a' });
    expect((await get(handler, `Bearer ${TEST_KEY}`, { 'x-client': 'a' })).status).toBe(429);
    expect((await get(handler, `Bearer ${OTHER_TEST_KEY}`, { 'x-client': 'b' })).status).toBe(200);

    const { handler: unlimited } = await createTestHandler({ failedAuthenticationLimit: false });
    for (let attempt = 0; attempt < 30; attempt += 1) {
      expect((await get(unlimited, `Bearer ${generateApiKey('test')}`)).status).toBe(401);
    }
  });
});
