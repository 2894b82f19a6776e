// engine.upgradeRuns with a migration that gives moved runs an input the new version
// requires: bank-payout@v2 records an ISO 20022 purpose code with each payout, and the
// migration derives it from the payee check the run already had. The moved run waits where
// it did, finishes on v2 with the code in its payout record, and its upgrade record says
// what it was given; the inputs it was created with are unchanged.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkUpgrade, compile, type CompiledScenario, type UpgradeReport } from '@programrun/dsl';
import { type Engine, type Scope } from '../src/index.js';
import { expectEngineError } from './expect-engine-error.js';
import { SCENARIO_DIRECTORY } from './scenarios.js';
import { approve as approveAs, upgradeEngine } from './upgrade-support.js';

const PURPOSE = new URL('../../dsl/test/fixtures/upgrades/purpose-code/', import.meta.url);
const read = (url: URL, file: string) => ({ text: readFileSync(url, 'utf8'), file });
const V1 = read(
  new URL('bank-payout@v1.yaml', `file://${SCENARIO_DIRECTORY}`),
  'bank-payout@v1.yaml',
);
const V2 = read(new URL('bank-payout@v2.yaml', PURPOSE), 'bank-payout@v2.yaml');
const MIGRATION = read(new URL('bank-payout@v1-to-v2.yaml', PURPOSE), 'bank-payout@v1-to-v2.yaml');
const [v1, v2] = [V1, V2].map(({ text, file }) => compile(text, { file })) as [
  CompiledScenario,
  CompiledScenario,
];
const scope: Scope = { account: 'acct_upgrade_inputs', environment: 'test' };
const OPERATOR = 'ops:upgrader';

const newEngine = (): Engine => upgradeEngine([v1, v2], 'upgrade-inputs');

const approve = (engine: Engine, runId: string, step: string, approver: string) =>
  approveAs(engine, scope, runId, step, approver);

/** A run waiting for its release (payee confirmed by name) and one waiting at its hold. */
async function parkedRuns(engine: Engine) {
  const inputs = v1.definition.example_inputs;
  const create = async () => (await engine.createRun(scope, { scenario_id: v1.id, inputs })).run.id;
  const releasing = await create();
  await engine.advanceTestClock(scope.account, 3_600);
  await approve(engine, releasing, 'submit_instruction', 'ops:maker');
  const held = await create();
  expect((await engine.getRun(scope, releasing)).awaiting?.step).toBe('release_approval');
  expect((await engine.getRun(scope, held)).awaiting?.step).toBe('hold_funds');
  return { releasing, held };
}

describe('engine.upgradeRuns with inputs the migration gives', () => {
  const report = checkUpgrade(V1, V2, MIGRATION);

  it('moves a run with the input derived from what it did, and it finishes on v2 with it', async () => {
    expect(report.ok).toBe(true);
    const engine = newEngine();
    const { releasing, held } = await parkedRuns(engine);
    const created = (await engine.getRun(scope, releasing)).inputs;

    const result = await engine.upgradeRuns(scope, { report, actor: OPERATOR });
    expect(Object.fromEntries(result.runs.map((run) => [run.run_id, run.outcome]))).toEqual({
      [releasing]: 'upgraded',
      [held]: 'stays',
    });
    const upgraded = (await engine.listEvents(scope, releasing)).at(-1)!;
    expect(upgraded).toMatchObject({
      type: 'program_run.upgraded',
      data: { inputs_given: { purpose_code: 'SUPP' }, upgraded_by: OPERATOR },
    });
    // What the run was created with stays as it was; v2 reads the given input besides.
    expect((await engine.getRun(scope, releasing)).inputs).toEqual(created);
    expect(created).not.toHaveProperty('purpose_code');

    for (const [index, approver] of ['ops:checker-1', 'ops:checker-2'].entries()) {
      await approve(engine, releasing, 'release_approval', approver);
      if (index === 1) await engine.advanceTestClock(scope.account, 3_600);
    }
    const done = await engine.getRun(scope, releasing);
    expect(done).toMatchObject({ status: 'completed', scenario_id: v2.id });
    const payout = (await engine.listEvents(scope, releasing)).find(
      (record) => record.step === 'record_payout',
    );
    expect(payout).toMatchObject({
      type: 'program_run.delivery.recorded',
      data: { data: { purpose_code: 'SUPP' } },
    });
  });

  it('leaves a run on v1 when the input cannot be worked out on it, saying why', async () => {
    // An optional input this run (an IBAN payout) was not given: the expression fails on it.
    const missing = checkUpgrade(V1, V2, {
      ...MIGRATION,
      text: MIGRATION.text.replace(
        "handoffs.verify_payee.data.name_match == 'match'",
        "inputs.local_bank_code == '0000'",
      ),
    });
    expect(missing.ok).toBe(true);
    const engine = newEngine();
    const { releasing } = await parkedRuns(engine);
    const result = await engine.upgradeRuns(scope, { report: missing, actor: OPERATOR });
    const refused = result.runs.find((run) => run.run_id === releasing);
    expect(refused).toMatchObject({ outcome: 'refused', state: 'release_approval' });
    expect(refused?.reason).toContain("the migration's input purpose_code:");
    expect((await engine.getRun(scope, releasing)).scenario_id).toBe(v1.id);
  });

  it('refuses a proof whose migration does not give an input v2 requires', async () => {
    const unproven: UpgradeReport = checkUpgrade(V1, V2);
    expect(unproven.ok).toBe(false);
    const engine = newEngine();
    const { releasing } = await parkedRuns(engine);
    await expectEngineError(
      engine.upgradeRuns(scope, { report: unproven, actor: OPERATOR }),
      'upgrade_not_proven',
    );
    expect((await engine.getRun(scope, releasing)).scenario_id).toBe(v1.id);
  });
});
