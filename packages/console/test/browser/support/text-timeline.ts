// When a page showed what, timed by the page itself. The reference server and Playwright's
// client share the test's event loop, so under CPU load the test may learn of an answer,
// and look at a page, a second or more after both happened; a `waitFor` with a 1 s budget
// then measures the test's own lateness. A MutationObserver in the page notes the time
// (the page's `Date.now()`: the machine's clock, the test's too) of every change of an
// element's text, and the test compares those times with when the answer arrived.
import type { Page } from 'playwright-core';
import { showsText } from './console-page.js';
import type { PageGlobals } from './page-globals.js';

/** One change of the watched element's text. */
interface Shown {
  readonly at: number;
  readonly text: string;
}

/** What a page showed in one element, and when. */
export interface TextTimeline {
  /**
   * Waits until the element shows `text` (as `showsText`, generous timeout), then returns
   * the page's time of the first change after which it did.
   */
  shownAt(text: string): Promise<number>;
}

/** Starts noting each change of the text of the element matching `selector` on `page`. */
export async function watchText(page: Page, selector: string): Promise<TextTimeline> {
  await page.evaluate((selector) => {
    const browser = globalThis as unknown as PageGlobals;
    const logs = (browser.__textLogs ??= {});
    const log: Shown[] = (logs[selector] = []);
    const note = () => {
      const text = browser.document.querySelector(selector)?.textContent ?? '';
      if (log.at(-1)?.text !== text) log.push({ at: Date.now(), text });
    };
    note();
    new browser.MutationObserver(note).observe(browser.document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  }, selector);
  return {
    async shownAt(text) {
      await showsText(page.locator(selector), text);
      const log = await page.evaluate(
        (selector): Shown[] => (globalThis as unknown as PageGlobals).__textLogs?.[selector] ?? [],
        selector,
      );
      const shown = log.find((entry) => entry.text.includes(text));
      if (!shown) throw new Error(`the page never noted "${text}" in ${selector}`);
      return shown.at;
    },
  };
}

/**
 * When the browser finished receiving the last response whose URL ends with `urlEnd` (its
 * Resource Timing, on the page's clock).
 */
export async function responseEndAt(page: Page, urlEnd: string): Promise<number> {
  const ends = await page.evaluate((urlEnd): number[] => {
    const { performance } = globalThis as unknown as PageGlobals;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith(urlEnd))
      .map((entry) => performance.timeOrigin + entry.responseEnd);
  }, urlEnd);
  const last = ends.at(-1);
  if (last === undefined) throw new Error(`the page made no request to …${urlEnd}`);
  return last;
}
