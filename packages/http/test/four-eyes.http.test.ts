// The finding of issue 15: one test key released a €18,450 bank payout as its maker and
// both of its checkers, with three made-up `approver` names. Quorum and four eyes count
// authenticated actors, so one key is one person, whatever it calls itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, decide, evidenceOf, keyFor, readRun, untilApprovalOrEnd } from './actors.js';
import { startTestServer, TEST_KEY, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('handle');
});
afterAll(async () => {
  await server.close();
});

const problemCode = async (response: Response) =>
  ((await response.json()) as { code?: string }).code;

describe('bank-payout@v1 four-eyes release', () => {
  it('does not complete when one key approves as maker and both checkers under three names', async () => {
    const run = await createRun(server, 'bank-payout@v1');
    expect((await untilApprovalOrEnd(server, run.id)).awaiting?.step).toBe('submit_instruction');

    const maker = await decide(server, run.id, TEST_KEY, {
      step: 'submit_instruction',
      approver: 'nobody:1',
    });
    expect(maker.status).toBe(200);
    expect((await untilApprovalOrEnd(server, run.id)).awaiting?.step).toBe('release_approval');

    // The same credential cannot be a checker of what it made, whatever it is called.
    for (const approver of ['nobody:2', 'nobody:3']) {
      const checker = await decide(server, run.id, TEST_KEY, {
        step: 'release_approval',
        approver,
      });
      expect(checker.status).toBe(409);
      expect(await problemCode(checker)).toBe('maker_checker_violation');
    }
    const after = await untilApprovalOrEnd(server, run.id);
    expect(after.status).toBe('waiting');
    expect(after.awaiting).toMatchObject({ step: 'release_approval', approvals: 0 });
  });

  it('counts one approval per actor, and completes with a maker and two other actors', async () => {
    const session = `sess_four_eyes_${Math.random()}`;
    const run = await createRun(server, 'bank-payout@v1', { session });
    const maker = await keyFor(server, 'ops:maker', ['runs:read', 'approvals:decide:payments_ops']);
    const first = await keyFor(server, 'ops:checker_one', ['approvals:decide']);
    // One person with two keys is still one person.
    const second = await keyFor(server, 'ops:checker_two', ['approvals:decide:finance_control']);
    const secondAgain = await keyFor(server, 'ops:checker_two', ['approvals:decide']);

    await untilApprovalOrEnd(server, run.id);
    expect(
      (await decide(server, run.id, maker.secret, { step: 'submit_instruction', approver: 'Mia' }))
        .status,
    ).toBe(200);
    await untilApprovalOrEnd(server, run.id);
    expect(
      await problemCode(
        await decide(server, run.id, maker.secret, { step: 'release_approval', approver: 'Mo' }),
      ),
    ).toBe('maker_checker_violation');
    // A key for compliance reviews may not release payouts at all.
    const compliance = await keyFor(server, 'ops:compliance', ['approvals:decide:compliance_desk']);
    expect(
      await problemCode(
        await decide(server, run.id, compliance.secret, { step: 'release_approval' }),
      ),
    ).toBe('approver_not_authorized');
    expect(
      (await decide(server, run.id, first.secret, { step: 'release_approval', approver: 'Cy' }))
        .status,
    ).toBe(200);
    // Another name is still the same actor: a repeat changes nothing, a change of mind is refused.
    const again = await decide(server, run.id, first.secret, {
      step: 'release_approval',
      approver: 'Cy, once more',
    });
    expect(again.status).toBe(200);
    const changed = await decide(server, run.id, first.secret, {
      step: 'release_approval',
      decision: 'reject',
      approver: 'Someone else',
    });
    expect(await problemCode(changed)).toBe('approver_already_decided');
    expect((await readRun(server, run.id)).awaiting).toMatchObject({
      step: 'release_approval',
      approvals: 1,
    });
    expect(
      (await decide(server, run.id, second.secret, { step: 'release_approval', approver: 'Di' }))
        .status,
    ).toBe(200);
    // The same actor through another key: a repeat of what is recorded, not a new approval.
    const repeat = await decide(server, run.id, secondAgain.secret, {
      step: 'release_approval',
      approver: 'Di',
    });
    expect(repeat.status).toBe(200);

    const done = await untilApprovalOrEnd(server, run.id);
    expect(done.status).toBe('completed');

    const bundle = await evidenceOf(server, run.id, session);
    const approvals = bundle.approvals as {
      step: string;
      quorum_met: boolean;
      decisions: { approver: string; credential_id?: string; label?: string }[];
    }[];
    const release = approvals.find((approval) => approval.step === 'release_approval')!;
    expect(release.quorum_met).toBe(true);
    expect(release.decisions).toEqual([
      expect.objectContaining({
        approver: 'ops:checker_one',
        credential_id: first.id,
        label: 'Cy',
      }),
      expect.objectContaining({
        approver: 'ops:checker_two',
        credential_id: second.id,
        label: 'Di',
      }),
    ]);
    expect(approvals.find((approval) => approval.step === 'submit_instruction')!.decisions).toEqual(
      [expect.objectContaining({ approver: 'ops:maker', credential_id: maker.id, label: 'Mia' })],
    );
  });
});
