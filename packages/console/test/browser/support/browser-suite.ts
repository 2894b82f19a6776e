// One reference server and one Chromium per test file, closed after its last test; each
// test opens its own browser context (fresh sessionStorage) with a watch on it.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { apiClient, type ApiClient } from './api.js';
import { launchChromium } from './chromium.js';
import {
  startConsoleServer,
  type ConsoleServer,
  type ConsoleServerOptions,
} from './console-server.js';
import { watchContext, type PageWatch } from './page-watch.js';

/** A test's own browser context and first page. */
export interface Tab {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly watch: PageWatch;
}

/** What the tests of a file share (filled in by `beforeAll`). */
export interface BrowserSuite {
  readonly server: ConsoleServer;
  readonly browser: Browser;
  /** The API as the reference server's test key. */
  readonly api: ApiClient;
  /** Opens a new context (closed with the suite) and a page in it. */
  open(): Promise<Tab>;
}

/** Registers the file's `beforeAll` / `afterAll` and returns the suite they fill in. */
export function browserSuite(options: ConsoleServerOptions = {}): BrowserSuite {
  let server: ConsoleServer | undefined;
  let browser: Browser | undefined;
  const suite: BrowserSuite = {
    get server() {
      if (!server) throw new Error('the suite has not started');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the suite has not started');
      return browser;
    },
    get api() {
      return apiClient(suite.server.url, suite.server.testKey);
    },
    async open() {
      const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const watch = await watchContext(context);
      const page = await context.newPage();
      return { context, page, watch };
    },
  };
  beforeAll(async () => {
    const [started, launched] = await Promise.allSettled([
      startConsoleServer(options),
      launchChromium(),
    ]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return suite;
}
