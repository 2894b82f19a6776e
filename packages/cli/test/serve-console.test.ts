// `programrun serve` serves the run console at /console next to the API, and says so.
import { join } from 'node:path';
import { CONSOLE_CONTENT_SECURITY_POLICY } from '@programrun/console';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBanner } from '../src/serve/banner.js';
import { startReferenceServer, type ReferenceServer } from '../src/serve/reference-server.js';
import { ROOT } from './run-bin.js';

let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({
    port: 0,
    host: '127.0.0.1',
    scenarioDirectory: join(ROOT, 'scenarios'),
    environment: { PROGRAMRUN_STORE: 'memory', PROGRAMRUN_LOG_LEVEL: 'silent' },
  });
});

afterAll(() => server.close());

describe('the reference server’s console', () => {
  it('is named near the top of the banner', () => {
    const banner = serverBanner(server, '127.0.0.1');
    expect(server.consoleUrl).toBe(`${server.url}/console`);
    expect(banner[1]).toBe(`Console: ${server.url}/console (paste the test API key)`);
  });

  it('serves the console page at /console with its CSP, and the API beside it', async () => {
    const page = await fetch(`${server.url}/console/runs/prun_x`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    const html = await page.text();
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/console\/assets\/[^/]+\.js$/);
    const asset = await fetch(`${server.url}${script!}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const principal = await fetch(`${server.url}/v1/principal`, {
      headers: { authorization: `Bearer ${server.testKey}` },
    });
    expect(principal.status).toBe(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
