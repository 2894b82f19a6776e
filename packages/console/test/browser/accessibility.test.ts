// Every page passes axe-core with no serious or critical violation, and the main actions
// work with the keyboard alone, with a visible focus ring.
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/accessibility.js';
import { browserSuite } from './support/browser-suite.js';
import {
  hidden,
  mainNavigation,
  navigate,
  region,
  showsText,
  signIn,
  visible,
} from './support/console-page.js';
import { focusRing, tabTo } from './support/keyboard.js';
import { screenshot } from './support/screenshots.js';

const SCENARIO = 'qr-merchant-settlement@v1';

const suite = browserSuite();

/** A run waiting on the payer's approval (the run page then shows every region). */
async function runAwaitingApproval() {
  const run = await suite.api.createRun(SCENARIO);
  return suite.api.drive(run.id, (current) => current.awaiting?.step === 'payer_approval');
}

describe('accessibility', () => {
  it('has no serious or critical axe violation on any page', async () => {
    const run = await runAwaitingApproval();
    const { title } = await suite.api.scenario(SCENARIO);
    const { page } = await suite.open();
    const found: Record<string, string[]> = {};

    await page.goto(suite.server.consoleUrl);
    await visible(page.getByRole('heading', { name: 'Sign in' }));
    found['sign-in'] = await seriousViolations(page);

    await signIn(page, suite.server.consoleUrl, suite.server.testKey);
    await visible(page.getByRole('link', { name: run.id }));
    found.runs = await seriousViolations(page);

    await page.getByRole('link', { name: run.id }).click();
    await showsText(region(page, 'Lifecycle'), 'Chain verified');
    await showsText(region(page, 'Awaiting'), 'payer_approval');
    found.run = await seriousViolations(page);
    await screenshot(page, 'a11y-run');

    await navigate(page, 'Approvals');
    await visible(page.getByRole('button', { name: `Approve ${run.id}` }));
    found.approvals = await seriousViolations(page);

    await navigate(page, 'Scenarios');
    await visible(page.getByRole('link', { name: title }));
    found.scenarios = await seriousViolations(page);

    await page.getByRole('link', { name: title }).click();
    await visible(page.getByRole('button', { name: 'Create test run' }));
    found.scenario = await seriousViolations(page);

    await navigate(page, 'Test clock');
    await visible(page.getByRole('button', { name: 'Advance to next timer' }));
    found.clock = await seriousViolations(page);

    const failing = Object.entries(found).filter(([, violations]) => violations.length > 0);
    expect(
      failing.map(([name, violations]) => `${name}:\n  ${violations.join('\n  ')}`).join('\n'),
    ).toBe('');
  });

  it('signs in with the keyboard alone', async () => {
    const { page } = await suite.open();
    await page.goto(suite.server.consoleUrl);
    await visible(page.getByRole('heading', { name: 'Sign in' }));
    await tabTo(page, page.getByRole('textbox', { name: 'API key' }));
    await page.keyboard.type(suite.server.testKey);
    await tabTo(page, page.getByRole('button', { name: 'Sign in' }));
    const ring = await focusRing(page);
    expect(ring.focusVisible).toBe(true);
    expect(
      ring.outlineWidth > 0 || ring.boxShadow !== 'none',
      `no visible focus ring: outline ${ring.outline}, box-shadow ${ring.boxShadow}`,
    ).toBe(true);
    await screenshot(page, 'sign-in-keyboard-focus');
    await page.keyboard.press('Enter');
    await visible(mainNavigation(page));
    await visible(page.getByRole('heading', { name: 'Runs', exact: true }));
  });

  it('approves from the inbox with the keyboard alone', async () => {
    const run = await runAwaitingApproval();
    const { page } = await suite.open();
    await signIn(page, suite.server.consoleUrl, suite.server.testKey);
    await tabTo(page, mainNavigation(page).getByRole('link', { name: 'Approvals' }));
    await page.keyboard.press('Enter');
    await visible(page.getByRole('heading', { name: 'Approvals', exact: true }));

    const approve = page.getByRole('button', { name: `Approve ${run.id}` });
    await visible(approve);
    await tabTo(page, approve, 150);
    const ring = await focusRing(page);
    expect(ring.focusVisible).toBe(true);
    expect(
      ring.outlineWidth > 0 || ring.boxShadow !== 'none',
      `no visible focus ring: outline ${ring.outline}, box-shadow ${ring.boxShadow}`,
    ).toBe(true);
    await page.keyboard.press('Space');
    await hidden(approve);
    const after = await suite.api.run(run.id);
    expect(after.awaiting?.step).not.toBe('payer_approval');
  });
});
