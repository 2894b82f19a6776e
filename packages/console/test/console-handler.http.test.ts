// createConsoleHandler over a real node:http server on 127.0.0.1, with real fetch: the
// index and client routes, cached assets, the security headers on every response, GET
// and HEAD only, and no way out of the app's directory.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleHandler, CONSOLE_CONTENT_SECURITY_POLICY } from '../src/index.js';
import { appFixture, SECRET } from './support/app-fixture.js';
import { listen, rawGet, type Listening } from './support/listen.js';

let root = '';
let server: Listening;

beforeAll(async () => {
  const fixture = await appFixture();
  root = fixture.root;
  const handler = createConsoleHandler({ appDirectory: fixture.app });
  server = await listen((request) => handler.handle(request));
});

afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

const get = (path: string, init?: RequestInit) => fetch(`${server.baseUrl}${path}`, init);

function expectSecurityHeaders(headers: Headers | Record<string, unknown>) {
  const read = (name: string) =>
    headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined);
  expect(read('content-security-policy')).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
  expect(read('x-content-type-options')).toBe('nosniff');
  expect(read('referrer-policy')).toBe('no-referrer');
  expect(read('cross-origin-opener-policy')).toBe('same-origin');
}

describe('the console handler', () => {
  it('serves index.html at the prefix, with and without the slash, uncached', async () => {
    for (const path of ['/console', '/console/']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const html = await response.text();
      expect(html).toContain('<meta name="programrun-console-prefix" content="/console" />');
      expect(html).toContain('src="/console/assets/main-abc.js"');
      expect(html).toContain('href="/console/assets/main-abc.css"');
      expect(html).not.toContain('"./assets/');
    }
  });

  it('answers every client route with index.html (deep links)', async () => {
    const index = await (await get('/console/')).text();
    for (const path of [
      '/console/runs/prun_4f1c2d3e4f5a6b7c8d9e0f1a',
      '/console/approvals',
      '/console/scenarios/wallet-delivery@v1',
      '/console/clock',
      '/console/no/such/page?x=1',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toBe(index);
    }
  });

  it('serves assets with a year-long immutable cache and their media types', async () => {
    const script = await get('/console/assets/main-abc.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await script.text()).toBe('console.log("app");\n');
    const style = await get('/console/assets/main-abc.css');
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers a missing asset 404, never the page', async () => {
    const response = await get('/console/assets/missing-123.js');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 404, code: 'route_not_found' });
  });

  it('puts the security headers on every response, errors included', async () => {
    for (const [path, method] of [
      ['/console/', 'GET'],
      ['/console/runs/x', 'HEAD'],
      ['/console/assets/main-abc.js', 'GET'],
      ['/console/assets/missing.js', 'GET'],
      ['/console/', 'POST'],
      ['/elsewhere', 'GET'],
    ] as const) {
      const response = await get(path, { method });
      expectSecurityHeaders(response.headers);
    }
  });

  it('answers other methods 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const response = await get('/console/', { method, body: method === 'OPTIONS' ? null : 'x' });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(await response.json()).toMatchObject({ code: 'method_not_allowed' });
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const path of ['/console/', '/console/assets/main-abc.js']) {
      const [head, full] = [await get(path, { method: 'HEAD' }), await get(path)];
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe(full.headers.get('content-type'));
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(await full.text())));
      expect(await head.text()).toBe('');
    }
  });

  it('answers 404 outside its prefix', async () => {
    for (const path of [
      '/',
      '/v1/program-runs',
      '/consoles',
      '/console-x/',
      '/assets/main-abc.js',
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it('never serves a file outside the app directory, however the path is spelt', async () => {
    for (const path of [
      '/console/../secret.txt',
      '/console/assets/../../secret.txt',
      '/console/%2e%2e/secret.txt',
      '/console/assets/%2e%2e/%2e%2e/secret.txt',
      '/console/assets/%2E%2E%2F%2E%2E%2Fsecret.txt',
      '/console/assets/..%2f..%2fsecret.txt',
      '/console/assets/..%5c..%5csecret.txt',
      '/console/assets/%252e%252e/%252e%252e/secret.txt',
      '/console/assets/....//....//secret.txt',
      '/console/assets/%00/../../secret.txt',
      '/console/assets/%zz',
      '/console/..%2fsecret.txt',
      '/console/%2fsecret.txt',
      '/console//..//secret.txt',
      '/console/assets\\..\\..\\secret.txt',
    ]) {
      const answer = await rawGet(server.port, path);
      expect(answer.body, path).not.toContain(SECRET);
      expect([200, 400, 404], path).toContain(answer.status);
      if (answer.status === 200) {
        // Only ever the app's own page (a client route), never a file's bytes.
        expect(answer.headers['content-type'], path).toBe('text/html; charset=utf-8');
      }
      expectSecurityHeaders(answer.headers);
    }
  });

  it('answers a path with an encoded slash or a bad escape 404 under assets', async () => {
    for (const path of [
      '/console/assets/a%2fb.js',
      '/console/assets/%zz.js',
      '/console/assets/%00.js',
    ]) {
      expect((await rawGet(server.port, path)).status, path).toBe(404);
    }
  });

  it('serves under another prefix, and refuses a prefix that is no plain path', async () => {
    const handler = createConsoleHandler({ prefix: '/ops/console', appDirectory: `${root}/app` });
    expect(handler.paths).toEqual(['/ops/console']);
    const page = await handler.handle(new Request('http://host/ops/console/runs/x'));
    const html = await page.text();
    expect(html).toContain('src="/ops/console/assets/main-abc.js"');
    expect(html).toContain('content="/ops/console"');
    expect((await handler.handle(new Request('http://host/console/'))).status).toBe(404);
    for (const prefix of ['', '/', 'console', '/console/', '/a/../b', '/a b', '/"><script>']) {
      expect(() => createConsoleHandler({ prefix }), prefix).toThrow(TypeError);
    }
  });

  it('answers 503 not_ready while the app is not built, and serves once it is', async () => {
    const handler = createConsoleHandler({ appDirectory: `${root}/not-built` });
    const response = await handler.handle(new Request('http://host/console/'));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'not_ready' });
    expectSecurityHeaders(response.headers);
  });
});
