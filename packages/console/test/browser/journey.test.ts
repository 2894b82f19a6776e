// The whole operator journey in a real Chromium against the real reference server: sign
// in, create a qr-merchant-settlement test run from the scenario's form, move it with the
// test clock, approve it from the inbox, see it complete, export and verify its evidence.
import { describe, expect, it } from 'vitest';
import { browserSuite } from './support/browser-suite.js';
import {
  advanceUntil,
  hidden,
  navigate,
  region,
  runIdOf,
  runStatus,
  showsText,
  shownWithin,
  signIn,
  visible,
} from './support/console-page.js';
import { screenshot } from './support/screenshots.js';

const SCENARIO = 'qr-merchant-settlement@v1';

const suite = browserSuite();

describe('the console journey', () => {
  it('creates a run from the form, approves it from the inbox, and verifies its evidence', async () => {
    const { page, watch } = await suite.open();
    const key = suite.server.testKey;

    await page.goto(suite.server.consoleUrl);
    await visible(page.getByRole('heading', { name: 'Sign in' }));
    await screenshot(page, 'sign-in');
    await signIn(page, suite.server.consoleUrl, key);
    await visible(page.getByRole('heading', { name: 'Runs', exact: true }));
    await showsText(page.getByRole('banner'), 'TEST MODE');
    await screenshot(page, 'runs');

    // The scenario page: its form is generated from the inputs schema, prefilled from
    // example_inputs.
    await navigate(page, 'Scenarios');
    await screenshot(page, 'scenarios');
    const { title } = await suite.api.scenario(SCENARIO);
    await page.getByRole('link', { name: title }).click();
    await visible(page.getByRole('heading', { name: title }));
    await showsText(page.getByRole('main'), SCENARIO);
    const form = page.getByRole('form', { name: 'Create a test run' });
    const field = (name: string) => form.getByRole('textbox', { name, exact: true });
    expect(await field('amount').inputValue()).toBe('850.00');
    expect(await field('merchant_country').inputValue()).toBe('TH');
    await screenshot(page, 'scenario');
    await form.getByRole('button', { name: 'Create test run' }).click();

    // The new run's page: heading is its id.
    await page.waitForURL(/\/console\/runs\/prun_/);
    const runId = runIdOf(page);
    await visible(page.getByRole('heading', { name: runId }));
    await visible(region(page, 'Statechart'));
    // Policy and posture list their facts in captioned tables, one row header per fact.
    await visible(
      region(page, 'Rules')
        .getByRole('table', { name: 'Rules' })
        .getByRole('rowheader', { name: /merchant_market_supported/ }),
    );
    await visible(
      region(page, 'Parties')
        .getByRole('table', { name: 'Parties' })
        .getByRole('rowheader', { name: /payer_bank/ }),
    );
    await screenshot(page, 'run');
    expect((await suite.api.run(runId)).scenario_id).toBe(SCENARIO);

    // Advance the test clock from the page until the run waits on the payer's approval.
    await advanceUntil(page, suite.api, runId, (run) => run.awaiting?.step === 'payer_approval');
    await showsText(region(page, 'Awaiting'), 'payer_approval');
    // The statechart lights the current step where the operator can see it.
    const statechart = region(page, 'Statechart');
    const current = statechart.locator('[data-step="payer_approval"][aria-current="step"]');
    await shownWithin(current, statechart.getByRole('group'));
    expect(await statechart.locator('.visited').count()).toBeGreaterThan(0);
    expect(await statechart.locator('.taken').count()).toBeGreaterThan(0);
    await screenshot(page, 'run-awaiting-approval');

    // The inbox lists it; approving from there records the signed-in principal.
    await navigate(page, 'Approvals');
    const approve = page.getByRole('button', { name: `Approve ${runId}` });
    await visible(approve);
    await screenshot(page, 'approvals');
    await approve.click();
    await hidden(approve);
    expect((await suite.api.run(runId)).awaiting?.step).not.toBe('payer_approval');

    // Back to the run: advance until it completes.
    await page.goto(`${suite.server.consoleUrl}runs/${runId}`);
    await visible(page.getByRole('heading', { name: runId }));
    await advanceUntil(page, suite.api, runId, (run) => run.status === 'completed');
    await showsText(runStatus(page), 'completed');
    await showsText(region(page, 'Lifecycle'), 'Chain verified');

    // Evidence: request access when asked, then export and verify in the browser.
    const evidence = region(page, 'Evidence');
    const requestAccess = evidence.getByRole('button', { name: 'Request access' });
    const exportButton = evidence.getByRole('button', { name: 'Export and verify' });
    await visible(requestAccess.or(exportButton).first());
    if (await requestAccess.isVisible()) {
      await evidence.getByLabel('Name').fill('Ana Tester');
      await evidence.getByLabel('Email').fill('ana@example.com');
      await evidence.getByLabel('Company').fill('Example Ltd');
      await evidence.getByLabel('Use case').fill('Browser tests');
      await requestAccess.click();
    }
    await (await visible(exportButton)).click();
    await showsText(evidence, 'Evidence verified.', 15_000);
    // The same checks, in the same words, as `programrun verify`.
    for (const check of ['statement', 'signature', 'chain'])
      await showsText(evidence, new RegExp(`✓ ${check}\\s`));
    const download = evidence.getByRole('link', { name: 'Download bundle' });
    await visible(download);
    expect(await download.getAttribute('href')).toMatch(/^blob:/);
    expect(await download.getAttribute('download')).toBe(`${runId}.evidence.json`);
    await screenshot(page, 'run-completed');

    await navigate(page, 'Test clock');
    await screenshot(page, 'clock');

    expect(watch.dialogs).toEqual([]);
    expect(watch.cspViolations).toEqual([]);
    expect(watch.urls.filter((url) => url.includes(key))).toEqual([]);
    expect(suite.server.logs.filter((line) => line.includes(key))).toEqual([]);
  });
});
