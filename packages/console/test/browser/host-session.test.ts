// Sign-in through the host's own session: a host whose `authenticate` hook reads its
// session cookie mounts the console next to /v1, and a browser holding that cookie is
// signed in as the host's principal without typing any key; without it, the sign-in page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, createMemoryStore } from '@programrun/engine';
import { createHandler, firstMatching } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';
import { scenariosDirectory } from '@programrun/scenarios';
import { createConsoleHandler } from '../../src/index.js';
import { launchChromium } from './support/chromium.js';
import { mainNavigation, visible } from './support/console-page.js';
import type { PageGlobals } from './support/page-globals.js';
import { screenshot } from './support/screenshots.js';

/** The host's session cookie and the principal it stands for. */
const SESSION = 'sess_host_alice';
const sessionOf = (request: Request): string | undefined =>
  /(?:^|;\s*)host_session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];

let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios: await loadCatalogue(scenariosDirectory),
  });
  const api = createHandler({
    engine,
    authenticate: (request) =>
      sessionOf(request) === SESSION
        ? {
            account: 'acct_host',
            environment: 'test',
            credentialId: SESSION,
            actor: 'ops:alice',
            scopes: ['runs:read'],
          }
        : null,
  });
  server = createServer(createNodeListener(firstMatching(createConsoleHandler(), api)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe("signing in with the host's own session", () => {
  it('signs in as the principal of the session cookie, with no key typed or stored', async () => {
    const context = await browser.newContext();
    try {
      await context.addCookies([
        { name: 'host_session', value: SESSION, url: base, sameSite: 'Strict', httpOnly: true },
      ]);
      const page = await context.newPage();
      await page.goto(`${base}/console`);
      await visible(mainNavigation(page));
      const banner = page.getByRole('banner');
      await visible(banner.getByText('ops:alice'));
      await visible(banner.getByText('acct_host'));
      await visible(page.getByRole('heading', { name: 'Runs', exact: true }));
      // Its scopes are the host's: a read-only session is offered no way to create runs.
      await mainNavigation(page).getByRole('link', { name: 'Scenarios', exact: true }).click();
      await visible(page.getByRole('heading', { name: 'Scenarios', exact: true }));
      await page
        .getByRole('link', { name: /QR payment/ })
        .first()
        .click();
      await visible(page.getByRole('region', { name: 'Diagram' }));
      expect(await page.getByRole('button', { name: 'Create test run' }).count()).toBe(0);
      expect(
        await page.evaluate(() => (globalThis as unknown as PageGlobals).sessionStorage.length),
      ).toBe(0);
      await screenshot(page, 'host-session');
    } finally {
      await context.close();
    }
  });

  it('asks for a key when the browser has no session', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${base}/console`);
      await visible(page.getByRole('heading', { name: 'Sign in' }));
      await visible(page.getByRole('textbox', { name: 'API key' }));
    } finally {
      await context.close();
    }
  });
});
