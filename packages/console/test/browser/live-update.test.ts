// A run that moves elsewhere (another tab, a script through the API) moves on its page
// within a second, without a reload. The page times what it shows itself (text-timeline),
// so a test process slowed by load does not count its own lateness against the page.
import { describe, expect, it } from 'vitest';
import { browserSuite } from './support/browser-suite.js';
import { region, runStatus, showsText, signIn, visible } from './support/console-page.js';
import { screenshot } from './support/screenshots.js';
import { responseEndAt, watchText } from './support/text-timeline.js';

/** How soon after the API answers the page must show the change. */
const LIVE_MS = 1_000;

const suite = browserSuite();

/** The run page's "Awaiting" region and its status line. */
const AWAITING = 'section[aria-labelledby="awaiting-heading"]';
const STATUS = 'main .run-status';

/** A qr-merchant-settlement run waiting on the payer's approval. */
async function runAwaitingApproval() {
  const run = await suite.api.createRun('qr-merchant-settlement@v1');
  return suite.api.drive(run.id, (current) => current.awaiting?.step === 'payer_approval');
}

describe('live updates', () => {
  it('moves a run page within a second of an approval made in another tab', async () => {
    const run = await runAwaitingApproval();
    const watching = (await suite.open()).page;
    const acting = (await suite.open()).page;
    for (const page of [watching, acting]) {
      await signIn(page, suite.server.consoleUrl, suite.server.testKey);
      await page.goto(`${suite.server.consoleUrl}runs/${run.id}`);
      await showsText(region(page, 'Awaiting'), 'payer_approval');
    }

    const awaiting = await watchText(watching, AWAITING);
    const answer = acting.waitForResponse(
      (response) =>
        response.url().endsWith(`/v1/program-runs/${run.id}/approvals`) &&
        response.request().method() === 'POST',
    );
    await region(acting, 'Actions').getByRole('button', { name: 'Approve' }).click();
    const approved = (await (await answer).json()) as { awaiting: { step: string } | null };
    expect(approved.awaiting?.step).toBeDefined();
    expect(approved.awaiting?.step).not.toBe('payer_approval');
    const answeredAt = await responseEndAt(acting, `/v1/program-runs/${run.id}/approvals`);

    // Negative when the watching tab had it before the acting tab had its answer.
    const after = (await awaiting.shownAt(approved.awaiting!.step)) - answeredAt;
    console.log(`live update: approval in another tab shown after ${Math.round(after)} ms`);
    expect(after).toBeLessThan(LIVE_MS);
  });

  it('changes the status within a second of a cancel made through the API', async () => {
    const run = await runAwaitingApproval();
    const { page } = await suite.open();
    await signIn(page, suite.server.consoleUrl, suite.server.testKey);
    await page.goto(`${suite.server.consoleUrl}runs/${run.id}`);
    await visible(page.getByRole('heading', { name: run.id }));
    await showsText(runStatus(page), 'waiting');
    const status = await watchText(page, STATUS);

    const cancelled = await suite.api.call<{ status: string }>(
      'POST',
      `/v1/program-runs/${run.id}/cancel`,
      {},
    );
    const answeredAt = Date.now();
    expect(cancelled.status).toBe('cancelled');

    const after = (await status.shownAt('cancelled')) - answeredAt;
    console.log(`live update: cancel through the API shown after ${Math.round(after)} ms`);
    expect(after).toBeLessThan(LIVE_MS);
    await screenshot(page, 'run-cancelled');
  });
});
