// Markup in scenario titles and approval notes is shown as text, the console is served
// under its Content-Security-Policy with nothing violating it, and the API key stays out
// of every URL and every server log line.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api.js';
import type { PageGlobals } from './support/page-globals.js';
import { browserSuite, type Tab } from './support/browser-suite.js';
import {
  eventually,
  navigate,
  region,
  showsText,
  signIn,
  visible,
} from './support/console-page.js';
import { screenshot } from './support/screenshots.js';

const MARKUP = '<img src=x onerror=alert(1)>';
const ESCAPED = 'escaped-title@v1';
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const suite = browserSuite({
  keys: { maker: { actor: 'ops:maker' } },
  extraScenarios: [fileURLToPath(new URL(`fixtures/${ESCAPED}.yaml`, import.meta.url))],
});

/** Every tab the tests opened: the key checks at the end look at all of them. */
const tabs: Tab[] = [];
async function open(): Promise<Tab> {
  const tab = await suite.open();
  tabs.push(tab);
  return tab;
}

/**
 * Elements the markup would have created if it had been parsed: images (HTML or SVG)
 * pointing at `x`, and anything carrying an `onerror` handler. There must be none.
 */
const injectedElements = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as PageGlobals).document.querySelectorAll(
        'img[src="x"], image[href="x"], [onerror]',
      ).length,
  );

describe('security', () => {
  afterAll(() => {
    // Checked once every test of the file has run (and only if the suite started).
    const key = suite.server.testKey;
    const makerKey = suite.server.keys.maker!;
    for (const { watch } of tabs) {
      expect(watch.urls.filter((url) => url.includes(key) || url.includes(makerKey))).toEqual([]);
      expect(watch.dialogs).toEqual([]);
      expect(watch.cspViolations).toEqual([]);
    }
    expect(suite.server.logs.length).toBeGreaterThan(0);
    expect(
      suite.server.logs.filter((line) => line.includes(key) || line.includes(makerKey)),
    ).toEqual([]);
  });

  it('serves every console response with the Content-Security-Policy and safe headers', async () => {
    for (const path of ['/console', '/console/', '/console/runs/prun_x', '/console/clock']) {
      const response = await fetch(`${suite.server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy'), path).toBe(CSP);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(response.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
    }

    const { page } = await open();
    const assets: string[] = [];
    page.on('response', (response) => {
      const url = response.url();
      if (!url.startsWith(`${suite.server.url}/console`)) return;
      assets.push(url);
      expect(response.headers()['content-security-policy'], url).toBe(CSP);
    });
    await page.goto(suite.server.consoleUrl);
    await visible(page.getByRole('heading', { name: 'Sign in' }));
    expect(assets.some((url) => url.endsWith('.js'))).toBe(true);
  });

  it('has the browser enforce the policy and the tests see violations', async () => {
    // A control for the "no violation" checks: an inline script is blocked and reported.
    // (This tab is left out of them.)
    const control = await suite.open();
    await control.page.goto(suite.server.consoleUrl);
    await visible(control.page.getByRole('heading', { name: 'Sign in' }));
    await control.page.evaluate(`{
      const script = document.createElement('script');
      script.textContent = 'window.inlineScriptRan = true';
      document.head.append(script);
    }`);
    await eventually(
      () => Promise.resolve(control.watch.cspViolations.length > 0 ? true : undefined),
      'the violation report',
    );
    expect(control.watch.cspViolations.join('\n')).toContain('script-src');
    expect(await control.page.evaluate('window.inlineScriptRan')).toBeUndefined();
    await control.context.close();
  });

  it('shows a scenario title carrying markup as text', async () => {
    const { title } = await suite.api.scenario(ESCAPED);
    expect(title).toContain(MARKUP);
    const { page } = await open();
    await signIn(page, suite.server.consoleUrl, suite.server.testKey);

    await navigate(page, 'Scenarios');
    await visible(page.getByRole('link', { name: title }));
    await page.getByRole('link', { name: title }).click();
    await visible(page.getByRole('heading', { name: title }));
    await visible(page.getByRole('button', { name: 'Create test run' }));
    // The diagram is named by the title and names the release step by its own (wrapped
    // over lines), through the sanitiser.
    const diagram = await visible(page.getByRole('img', { name: `${title} (${ESCAPED})` }));
    expect(await diagram.textContent()).toMatch(
      /Operations release <img\s*src=x onerror=alert\(1\)>/,
    );
    expect(await injectedElements(page)).toBe(0);
    await screenshot(page, 'scenario-escaped-title');

    // A run of it: its page and the runs list show the same text, never an image.
    await page.getByRole('button', { name: 'Create test run' }).click();
    await page.waitForURL(/\/console\/runs\/prun_/);
    await visible(region(page, 'Statechart'));
    expect(await injectedElements(page)).toBe(0);
    await navigate(page, 'Runs');
    await visible(page.getByRole('table'));
    expect(await injectedElements(page)).toBe(0);
  });

  it('shows an approval note carrying markup as text, in the decisions and the timeline', async () => {
    // The maker submits the payout; the test key releases it with the note (1 of 2).
    const maker = apiClient(suite.server.url, suite.server.keys.maker!);
    const created = await maker.createRun('bank-payout@v1');
    const run = await maker.drive(
      created.id,
      (current) => current.awaiting?.step === 'release_approval',
    );
    const { page } = await open();
    await signIn(page, suite.server.consoleUrl, suite.server.testKey);
    await page.goto(`${suite.server.consoleUrl}runs/${run.id}`);
    const actions = region(page, 'Actions');
    await actions.getByRole('textbox', { name: 'Note' }).fill(`Released ${MARKUP}`);
    await actions.getByRole('button', { name: 'Approve' }).click();

    await showsText(region(page, 'Awaiting'), `Released ${MARKUP}`);
    const lifecycle = region(page, 'Lifecycle');
    await showsText(lifecycle, 'Chain verified');
    // Expand every record's data: the note is in the approval's record.
    for (const summary of await lifecycle.locator('summary').all()) await summary.click();
    await showsText(lifecycle, `Released ${MARKUP}`);
    expect(await injectedElements(page)).toBe(0);
    expect((await suite.api.run(run.id)).awaiting?.approvals).toBe(1);
    await screenshot(page, 'run-escaped-note');

    // The inbox shows who decided and the note the same way.
    await navigate(page, 'Approvals');
    await visible(page.getByRole('link', { name: run.id }));
    expect(await injectedElements(page)).toBe(0);
  });

  it('keeps the key in sessionStorage and sends it only as an Authorization header', async () => {
    const { page, context } = await open();
    const sent: { url: string; authorization: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/'))
        sent.push({ url: request.url(), authorization: request.headers().authorization });
    });
    await signIn(page, suite.server.consoleUrl, suite.server.testKey);
    await navigate(page, 'Approvals');
    await navigate(page, 'Scenarios');

    // Without a stored key the app first asks for the host's own session (cookies only).
    const anonymous = sent.filter((request) => request.authorization === undefined);
    expect(anonymous.map((request) => new URL(request.url).pathname)).toEqual(['/v1/principal']);
    const authorized = sent.filter((request) => request.authorization !== undefined);
    expect(authorized.length).toBeGreaterThan(2);
    for (const request of authorized)
      expect(request.authorization, request.url).toBe(`Bearer ${suite.server.testKey}`);
    const storage = await page.evaluate(() => {
      const browser = globalThis as unknown as PageGlobals;
      return {
        session: browser.sessionStorage.getItem('programrun.console.key'),
        local: JSON.stringify(browser.localStorage),
        url: browser.location.href,
        cookie: browser.document.cookie,
      };
    });
    expect(storage.session).toBe(suite.server.testKey);
    expect(storage.local).not.toContain(suite.server.testKey);
    expect(storage.url).not.toContain(suite.server.testKey);
    expect(storage.cookie).not.toContain(suite.server.testKey);
    expect(JSON.stringify(await context.cookies())).not.toContain(suite.server.testKey);
  });
});
