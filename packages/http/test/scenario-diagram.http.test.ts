// GET /v1/scenarios/{id}/diagram: exactly scenarioSvg(compiled), the digest as ETag, 304 on
// If-None-Match, 404 as problem+json, answered without the store.
import { scenarioSvg } from '@programrun/dsl';
import { createEngine, createMemoryStore } from '@programrun/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../src/index.js';
import { keyFor } from './actors.js';
import { startTestServer, type TestServer } from './harness.js';
import { checkResponseAgainstOpenApi } from './openapi-conformance.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('node');
});
afterAll(async () => {
  await server.close();
});

const diagram = (id: string, headers: Record<string, string> = {}, key?: string | null) =>
  server.request('GET', `/v1/scenarios/${encodeURIComponent(id)}/diagram`, {
    headers,
    ...(key === undefined ? {} : { key }),
  });

describe('GET /v1/scenarios/{id}/diagram', () => {
  it('answers every scenario’s SVG, byte for byte, with its digest as ETag', async () => {
    for (const scenario of server.engine.scenarios.list()) {
      const response = await diagram(scenario.id);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(response.headers.get('etag')).toBe(`"${scenario.digest}"`);
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
      const svg = await response.text();
      expect(svg).toBe(scenarioSvg(scenario));
      expect(svg).toContain('data-step=');
      expect(svg).toContain('id="run_start"');
      expect(svg).toMatch(/data-from="[^"]+" data-to="[^"]+"/);
    }
  });

  it('answers 304 without a body when If-None-Match names the digest', async () => {
    const scenario = server.engine.scenarios.get('wallet-delivery@v1');
    const etag = `"${scenario.digest}"`;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"sha256:other", ${etag}`, '*']) {
      const response = await diagram(scenario.id, { 'if-none-match': ifNoneMatch });
      expect(response.status, ifNoneMatch).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(await response.text()).toBe('');
    }
    const stale = await diagram(scenario.id, { 'if-none-match': `"sha256:${'0'.repeat(64)}"` });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(scenarioSvg(scenario));
  });

  it('answers 404 scenario_not_found as problem+json, and needs runs:read', async () => {
    const missing = await diagram('nope@v9');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(await missing.json()).toMatchObject({ code: 'scenario_not_found' });
    const hooks = await keyFor(server, 'hooks', ['webhooks:manage']);
    expect((await diagram('wallet-delivery@v1', {}, hooks.secret)).status).toBe(403);
    expect((await diagram('wallet-delivery@v1', {}, null)).status).toBe(401);
  });

  it('is drawn without the store', async () => {
    const store = createMemoryStore();
    await store.close();
    const handler = createHandler({
      engine: createEngine({ store, scenarios: server.engine.scenarios.list() }),
      authenticate: () => ({ account: 'acct_one', environment: 'test', credentialId: 'host' }),
    });
    const response = await handler.handle(
      new Request('http://localhost/v1/scenarios/wallet-delivery@v1/diagram'),
    );
    const bodyText = await response.text();
    expect(response.status).toBe(200);
    expect(
      checkResponseAgainstOpenApi('GET', '/v1/scenarios/wallet-delivery@v1/diagram', {
        status: response.status,
        headers: response.headers,
        bodyText,
      }),
    ).toEqual([]);
  });
});
