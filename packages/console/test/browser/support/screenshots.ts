// Screenshots of each page the tests visit, kept as test artifacts in
// packages/console/test-results/screenshots/<name>.png (git-ignored).
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** Where the screenshots go. */
export const SCREENSHOTS = fileURLToPath(
  new URL('../../../test-results/screenshots/', import.meta.url),
);

/** Writes a full-page screenshot of `page` as `<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}
