// engine.upgradeRuns with a migration that gives waiting runs the new version's deadline:
// bank-payout@v2 gives checkers a day to release a payout (v1: 8 hours) and the ledger
// 15 minutes to place a hold (v1: 5). A moved run's deadline is the new duration after its
// wait started; its old timer is replaced, its handoff job's deadline follows, and the
// upgrade record says what moved. Without the migration's word, deadlines stay.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkUpgrade, compile, type CompiledScenario } from '@programrun/dsl';
import type { Engine, Scope } from '../src/index.js';
import { SCENARIO_DIRECTORY } from './scenarios.js';
import { approve, upgradeEngine } from './upgrade-support.js';

const v1Text = readFileSync(new URL('bank-payout@v1.yaml', `file://${SCENARIO_DIRECTORY}`), 'utf8');
const V1 = { text: v1Text, file: 'bank-payout@v1.yaml' };
const V2 = {
  text: v1Text
    .replace('version: v1', 'version: v2')
    .replace(
      'maker_checker: true\n        expires: PT8H\n',
      'maker_checker: true\n        expires: P1D\n',
    )
    .replace(
      '          reference: inputs.payout_reference\n        timeout: PT5M\n',
      '          reference: inputs.payout_reference\n        timeout: PT15M\n',
    ),
  file: 'bank-payout@v2.yaml',
};
const MIGRATION = {
  text: 'scenario: bank-payout\nfrom: v1\nto: v2\ndeadlines:\n  release_approval: new_version\n  hold_funds: new_version\n',
  file: 'bank-payout@v1-to-v2.yaml',
};
const [v1, v2] = [V1, V2].map(({ text, file }) => compile(text, { file })) as [
  CompiledScenario,
  CompiledScenario,
];
const scope: Scope = { account: 'acct_upgrade_deadlines', environment: 'test' };
const OPERATOR = 'ops:upgrader';
const HOUR = 3_600_000;

/** A run waiting for its two checkers (one has released), and one waiting for its hold. */
async function parkedRuns(engine: Engine) {
  const inputs = v1.definition.example_inputs;
  const create = async () => (await engine.createRun(scope, { scenario_id: v1.id, inputs })).run.id;
  const releasing = await create();
  await engine.advanceTestClock(scope.account, 3_600);
  await approve(engine, scope, releasing, 'submit_instruction', 'ops:maker');
  await approve(engine, scope, releasing, 'release_approval', 'ops:checker-1');
  const held = await create();
  return { releasing, held };
}

const deadlineOf = async (engine: Engine, runId: string) =>
  Date.parse((await engine.getRun(scope, runId)).awaiting!.deadline!);

describe('engine.upgradeRuns with deadlines the migration moves', () => {
  it("gives a waiting run the new version's deadline, counted from when its wait started", async () => {
    const report = checkUpgrade(V1, V2, MIGRATION);
    expect(report.problems).toEqual([]);
    const engine = upgradeEngine([v1, v2], 'upgrade-deadlines');
    const { releasing, held } = await parkedRuns(engine);
    const release = await deadlineOf(engine, releasing);
    const hold = await deadlineOf(engine, held);
    const jobDeadline = async () =>
      (await engine.unitOfWork(scope, ({ tx }) => tx.handoffJobsOfRun(held)))[0]!.deadline;
    expect(Date.parse(await jobDeadline())).toBe(hold);

    await engine.upgradeRuns(scope, { report, actor: OPERATOR });
    // 8 hours after the release was asked for became 24; 5 minutes for the hold became 15.
    expect(await deadlineOf(engine, releasing)).toBe(release + 16 * HOUR);
    expect(await deadlineOf(engine, held)).toBe(hold + 10 * 60_000);
    expect(Date.parse(await jobDeadline())).toBe(hold + 10 * 60_000);
    expect((await engine.listEvents(scope, releasing)).at(-1)).toMatchObject({
      type: 'program_run.upgraded',
      data: {
        deadlines_moved: {
          release_approval: {
            from: new Date(release).toISOString(),
            to: new Date(release + 16 * HOUR).toISOString(),
          },
        },
      },
    });

    // Nine hours on, past v1's expiry, the release still waits for its second checker.
    await engine.advanceTestClock(scope.account, 9 * 3_600);
    const waiting = await engine.getRun(scope, releasing);
    expect(waiting).toMatchObject({ status: 'waiting', scenario_id: v2.id });
    expect(waiting.awaiting?.step).toBe('release_approval');
    // Past the new deadline, it expires: the release compensates, the hold is released.
    await engine.advanceTestClock(scope.account, 16 * 3_600);
    const expired = await engine.listEvents(scope, releasing);
    expect(expired.map((record) => record.type)).toContain('program_run.approval.expired');
  });

  it('keeps the deadlines of waiting runs when the migration does not move them', async () => {
    const report = checkUpgrade(V1, V2);
    expect(report.problems).toEqual([]);
    const engine = upgradeEngine([v1, v2], 'upgrade-deadlines-kept');
    const { releasing } = await parkedRuns(engine);
    const release = await deadlineOf(engine, releasing);
    await engine.upgradeRuns(scope, { report, actor: OPERATOR });
    expect(await deadlineOf(engine, releasing)).toBe(release);
    expect((await engine.listEvents(scope, releasing)).at(-1)?.data).toMatchObject({
      deadlines_moved: {},
    });
  });
});
