// What the API refuses, the page says in the API's own words; what the principal may not
// do, the page does not offer.
import { describe, expect, it } from 'vitest';
import { ApiProblem, apiClient, type ApiClient } from './support/api.js';
import { browserSuite } from './support/browser-suite.js';
import {
  clickForAnswer,
  navigate,
  region,
  showsText,
  signIn,
  visible,
} from './support/console-page.js';
import { screenshot } from './support/screenshots.js';

const suite = browserSuite({
  keys: {
    checker: { actor: 'ops:checker', scopes: ['runs:read', 'approvals:decide'] },
    reader: { actor: 'ops:reader', scopes: ['runs:read'] },
    // May decide only for a party that is no approver of bank-payout's release step.
    compliance: {
      actor: 'ops:compliance',
      scopes: ['runs:read', 'approvals:decide:compliance_desk'],
    },
  },
});

/** The API's `detail` for what `attempt` does, which must be a refusal. */
async function refusalOf(attempt: Promise<unknown>): Promise<string> {
  try {
    await attempt;
  } catch (error) {
    if (error instanceof ApiProblem && error.body.detail) return error.body.detail;
    throw error;
  }
  throw new Error('the API accepted what the test expected it to refuse');
}

/** A bank-payout run driven by `maker` until it waits on `step`. */
async function bankPayoutAt(maker: ApiClient, step: string) {
  const run = await maker.createRun('bank-payout@v1');
  return maker.drive(run.id, (current) => current.awaiting?.step === step);
}

describe('refusals', () => {
  it('shows the four-eyes refusal when the maker approves the release too', async () => {
    // The test key is the maker: it submits the instruction from the inbox, then tries to
    // release the payout it submitted.
    const run = await bankPayoutAt(suite.api, 'submit_instruction');
    const { page } = await suite.open();
    await signIn(page, suite.server.consoleUrl, suite.server.testKey);
    await navigate(page, 'Approvals');
    const approve = page.getByRole('button', { name: `Approve ${run.id}` });
    const submitted = await clickForAnswer(page, await visible(approve), `${run.id}/approvals`);
    expect(submitted.status()).toBe(200);
    expect((await suite.api.run(run.id)).awaiting?.step).toBe('release_approval');

    // The release row (quorum 0 of 2) appears in the inbox; the maker's approval is refused.
    const row = page
      .getByRole('row')
      .filter({ hasText: 'release_approval' })
      .filter({ hasText: run.id });
    await showsText(row, '0 of 2');
    const detail = await refusalOf(suite.api.decide(run.id, 'release_approval', 'approve'));
    expect(detail).toContain('four eyes');
    await row.getByRole('button', { name: `Approve ${run.id}` }).click();
    await visible(page.getByRole('alert').filter({ hasText: detail }));
    expect((await suite.api.run(run.id)).awaiting?.approvals).toBe(0);
    await screenshot(page, 'approvals-maker-checker-refused');
  });

  it('counts a checker once and shows the refusal when the same checker decides again', async () => {
    const run = await bankPayoutAt(suite.api, 'release_approval');
    const { page } = await suite.open();
    await signIn(page, suite.server.consoleUrl, suite.server.keys.checker!);
    await page.goto(`${suite.server.consoleUrl}runs/${run.id}`);
    const awaiting = region(page, 'Awaiting');
    await showsText(awaiting, 'Quorum 0 of 2');
    const actions = region(page, 'Actions');
    await actions.getByRole('button', { name: 'Approve' }).click();
    await showsText(awaiting, 'Quorum 1 of 2');
    await showsText(awaiting, 'ops:checker');

    // Approving again is a repeat the API answers unchanged: still one approval.
    const again = actions.getByRole('button', { name: 'Approve' });
    expect((await clickForAnswer(page, again, `${run.id}/approvals`)).status()).toBe(200);
    const checker = apiClient(suite.server.url, suite.server.keys.checker!);
    expect((await checker.run(run.id)).awaiting?.approvals).toBe(1);
    await showsText(awaiting, 'Quorum 1 of 2');

    // Changing its mind is refused: each approver decides once.
    const detail = await refusalOf(checker.decide(run.id, 'release_approval', 'reject'));
    expect(detail).toContain('already decided');
    await actions.getByRole('button', { name: 'Reject' }).click();
    await visible(page.getByRole('alert').filter({ hasText: detail }));
    expect((await checker.run(run.id)).status).toBe('waiting');
    await screenshot(page, 'run-already-decided-refused');
  });

  it('renders no action a read-only key may not take', async () => {
    const run = await bankPayoutAt(suite.api, 'submit_instruction');
    const { page } = await suite.open();
    await signIn(page, suite.server.consoleUrl, suite.server.keys.reader!);
    await showsText(page.getByRole('list', { name: 'Scopes' }), 'runs:read');

    await page.goto(`${suite.server.consoleUrl}runs/${run.id}`);
    await showsText(region(page, 'Awaiting'), 'submit_instruction');
    for (const name of ['Approve', 'Reject', 'Cancel run', 'Advance to next timer', 'Advance by'])
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    expect(await page.getByRole('form', { name: 'Partner answer' }).count()).toBe(0);
    await screenshot(page, 'run-read-only');

    await navigate(page, 'Approvals');
    await visible(page.getByRole('link', { name: run.id }));
    expect(await page.getByRole('button', { name: /^(Approve|Reject) / }).count()).toBe(0);

    await navigate(page, 'Scenarios');
    const { title } = await suite.api.scenario('bank-payout@v1');
    await page.getByRole('link', { name: title }).click();
    await visible(page.getByRole('heading', { name: title }));
    expect(await page.getByRole('button', { name: 'Create test run' }).count()).toBe(0);

    // The test clock shows the time to a reader, but moving it needs runs:write.
    await navigate(page, 'Test clock');
    await showsText(page.getByRole('main'), 'Next timer');
    for (const name of ['Advance to next timer', 'Advance by'])
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    await screenshot(page, 'clock-read-only');
  });

  it('offers no decision to a key limited to a party that is no approver, and refuses any', async () => {
    const run = await bankPayoutAt(suite.api, 'submit_instruction');
    const { page } = await suite.open();
    await signIn(page, suite.server.consoleUrl, suite.server.keys.compliance!);
    await page.goto(`${suite.server.consoleUrl}runs/${run.id}`);
    await showsText(region(page, 'Awaiting'), 'submit_instruction');
    const approve = region(page, 'Actions').getByRole('button', { name: 'Approve' });
    const offered = await approve.count();
    if (offered > 0) {
      // Shown anyway: the API must refuse it, and the page must say so.
      await approve.click();
      await visible(page.getByRole('alert'));
      expect((await suite.api.run(run.id)).awaiting?.step).toBe('submit_instruction');
    }
    expect(offered, 'Approve is offered to a key that may not decide this step').toBe(0);

    await navigate(page, 'Approvals');
    await visible(page.getByRole('link', { name: run.id }));
    expect(await page.getByRole('button', { name: `Approve ${run.id}` }).count()).toBe(0);
  });
});
