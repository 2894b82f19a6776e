// Moves through the console the way a person does: by roles and accessible names (the UI
// vocabulary of the design), waiting on what the page shows rather than sleeping.
import type { Locator, Page, Response } from 'playwright-core';
import type { ApiClient, ProgramRun } from './api.js';

/** How long a page may take to show what a step expects. */
export const UI_TIMEOUT = 10_000;

/** Waits until `locator` is visible (fails with its description after `timeout`). */
export async function visible(locator: Locator, timeout = UI_TIMEOUT): Promise<Locator> {
  await locator.waitFor({ state: 'visible', timeout });
  return locator;
}

/** Waits until `locator` is gone or hidden. */
export async function hidden(locator: Locator, timeout = UI_TIMEOUT): Promise<void> {
  await locator.waitFor({ state: 'hidden', timeout });
}

/** Waits until some visible text within `scope` matches `text`, and returns it. */
export async function showsText(
  scope: Locator | Page,
  text: string | RegExp,
  timeout = UI_TIMEOUT,
): Promise<Locator> {
  return visible(scope.getByText(text).first(), timeout);
}

/**
 * Polls `check` (a Node-side condition, e.g. an API answer) every `intervalMs` until it
 * returns a value other than `undefined`.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeout = UI_TIMEOUT,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Waits until `inner` shows inside the visible box of `outer` (e.g. the current step of a
 * statechart inside its scrolling diagram), not merely somewhere in the document.
 */
export async function shownWithin(inner: Locator, outer: Locator, timeout = UI_TIMEOUT) {
  await visible(inner, timeout);
  await eventually(
    async () => {
      const [box, frame] = await Promise.all([inner.boundingBox(), outer.boundingBox()]);
      if (box === null || frame === null) return undefined;
      const overlaps =
        box.x < frame.x + frame.width &&
        box.x + box.width > frame.x &&
        box.y < frame.y + frame.height &&
        box.y + box.height > frame.y;
      return overlaps ? true : undefined;
    },
    `${String(inner)} to show inside ${String(outer)}`,
    timeout,
  );
}

/** The "Main" navigation of a signed-in page. */
export const mainNavigation = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** A region of the run page by its name ("Awaiting", "Lifecycle", "Evidence", …). */
export const region = (page: Page, name: string) => page.getByRole('region', { name });

/** Opens the console at `consoleUrl` and signs in with `key` through the sign-in form. */
export async function signIn(page: Page, consoleUrl: string, key: string): Promise<void> {
  await page.goto(consoleUrl);
  await visible(page.getByRole('heading', { name: 'Sign in' }));
  await page.getByRole('textbox', { name: 'API key' }).fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await visible(mainNavigation(page));
}

/** Follows the "Main" navigation link `name` and waits for the page's heading. */
export async function navigate(page: Page, name: string, heading = name): Promise<void> {
  await mainNavigation(page).getByRole('link', { name, exact: true }).click();
  await visible(page.getByRole('heading', { name: heading, exact: true }));
}

/**
 * Clicks `target` and returns the API's answer to the `method` request whose path ends with
 * `pathEnd` that the click sent.
 */
export async function clickForAnswer(
  page: Page,
  target: Locator,
  pathEnd: string,
  method = 'POST',
): Promise<Response> {
  const answer = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname.endsWith(pathEnd) && response.request().method() === method,
  );
  await target.click();
  return answer;
}

/** The run id of the run page `page` shows (from its URL). */
export function runIdOf(page: Page): string {
  const id = /\/runs\/(prun_[A-Za-z0-9]+)/.exec(page.url())?.[1];
  if (id === undefined) throw new Error(`not a run page: ${page.url()}`);
  return id;
}

/** The run page's status line ("Status: waiting · stage …"). */
export const runStatus = (page: Page) => page.getByRole('main').getByText(/^Status: /);

/**
 * On a run page, clicks "Advance to next timer" until the run (read through the API)
 * satisfies `until`; each click waits for the clock's answer. Fails after `maxClicks`.
 */
export async function advanceUntil(
  page: Page,
  api: ApiClient,
  runId: string,
  until: (run: ProgramRun) => boolean,
  maxClicks = 30,
): Promise<ProgramRun> {
  const button = region(page, 'Actions').getByRole('button', { name: 'Advance to next timer' });
  for (let clicks = 0; ; clicks++) {
    const run = await api.run(runId);
    if (until(run)) return run;
    if (clicks === maxClicks || ['completed', 'faulted', 'cancelled'].includes(run.status))
      throw new Error(`run ${runId} did not get there: ${JSON.stringify(run)}`);
    await clickForAnswer(page, button, '/v1/test_helpers/clock/advance');
  }
}
