// Moving through a page with the keyboard only, as someone who cannot use a mouse does.
import type { Locator, Page } from 'playwright-core';
import type { PageGlobals } from './page-globals.js';

const isFocused = (locator: Locator) =>
  locator
    .evaluate(
      (element) => element === (globalThis as unknown as PageGlobals).document.activeElement,
    )
    .catch(() => false);

/**
 * Presses Tab until `target` has focus; fails after `maxPresses` (it is not reachable by
 * keyboard). Returns how many presses it took.
 */
export async function tabTo(page: Page, target: Locator, maxPresses = 80): Promise<number> {
  for (let presses = 1; presses <= maxPresses; presses++) {
    await page.keyboard.press('Tab');
    if (await isFocused(target)) return presses;
  }
  throw new Error(`not reachable with Tab in ${maxPresses} presses: ${String(target)}`);
}

/**
 * How the focused element shows its focus: its computed outline and box-shadow, and
 * whether it matches `:focus-visible`.
 */
export function focusRing(page: Page): Promise<{
  focusVisible: boolean;
  outline: string;
  outlineWidth: number;
  boxShadow: string;
}> {
  return page.evaluate(() => {
    const browser = globalThis as unknown as PageGlobals;
    const element = browser.document.activeElement;
    if (element === null) throw new Error('nothing has focus');
    const style = browser.getComputedStyle(element);
    return {
      focusVisible: element.matches(':focus-visible'),
      outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
      outlineWidth: style.outlineStyle === 'none' ? 0 : Number.parseFloat(style.outlineWidth),
      boxShadow: style.boxShadow,
    };
  });
}
