// The browser the tests drive: Debian's Chromium when the machine has it, else the one
// @sparticuz/chromium ships in its npm package (extracted once to the temp directory), so
// a machine with only Node and npm runs the suite.
import { access, constants } from 'node:fs/promises';
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * Flags of @sparticuz/chromium (made for AWS Lambda) left out: two switch browser security
 * off, and the tests check the console's Content-Security-Policy and same-origin
 * behaviour; `--single-process` makes the browser exit when a test closes its context.
 */
const LEFT_OUT = new Set([
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--single-process',
]);

async function systemChromium(): Promise<string | null> {
  for (const path of SYSTEM_CHROMIUM) {
    try {
      await access(path, constants.X_OK);
      return path;
    } catch {
      // Not installed there: try the next place, then the npm package.
    }
  }
  return null;
}

/** Starts a headless Chromium (one per test file: close it in `afterAll`). */
export async function launchChromium(): Promise<Browser> {
  const system = await systemChromium();
  if (system !== null) {
    return chromium.launch({ executablePath: system, headless: true, args: ['--no-sandbox'] });
  }
  return chromium.launch({
    executablePath: await sparticuz.executablePath(),
    args: sparticuz.args.filter((flag) => !LEFT_OUT.has(flag)),
    headless: true,
  });
}
