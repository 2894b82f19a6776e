// engine.upgradeRuns: runs of bank-payout@v1 parked at different steps move to v2 (which
// screens the beneficiary again before the payout) by the proof of `checkUpgrade`, each in
// one transaction with a program_run.upgraded record in its hash chain, then finish on v2;
// a run whose instruction is with the bank stays on v1 and finishes there.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '@programrun/evidence';
import { checkUpgrade, compile, type CompiledScenario, type UpgradeReport } from '@programrun/dsl';
import { createMemoryStore, type Engine, type Scope, type StoreV1 } from '../src/index.js';
import { expectEngineError } from './expect-engine-error.js';
import { SCENARIO_DIRECTORY } from './scenarios.js';
import { approve as approveAs, upgradeEngine } from './upgrade-support.js';

const FIXTURES = new URL('../../dsl/test/fixtures/upgrades/', import.meta.url);
const file = (directory: URL | string, name: string) => {
  const url = new URL(name, typeof directory === 'string' ? `file://${directory}` : directory);
  return { text: readFileSync(url, 'utf8'), file: name };
};
const scope: Scope = { account: 'acct_upgrades', environment: 'test' };
/** The operator who moves the runs, as the upgrade records name them. */
const OPERATOR = 'ops:upgrader';

let v1: CompiledScenario;
let v2: CompiledScenario;
let report: UpgradeReport;
beforeAll(() => {
  const from = file(SCENARIO_DIRECTORY, 'bank-payout@v1.yaml');
  const to = file(FIXTURES, 'bank-payout@v2.yaml');
  report = checkUpgrade(from, to, file(FIXTURES, 'bank-payout@v1-to-v2.yaml'));
  [v1, v2] = [from, to].map(({ text, file: name }) => compile(text, { file: name })) as [
    CompiledScenario,
    CompiledScenario,
  ];
});

const newEngine = (store?: StoreV1): Engine => upgradeEngine([v1, v2], 'upgrade-runs', store);

const approve = (engine: Engine, runId: string, step: string, approver: string) =>
  approveAs(engine, scope, runId, step, approver);

/** Runs parked at the hold (A), at the release with one of two checkers (B), at the payout (S). */
async function parkedRuns(engine: Engine) {
  const inputs = v1.definition.example_inputs;
  const create = async () => (await engine.createRun(scope, { scenario_id: v1.id, inputs })).run.id;
  const released = await create();
  const halfReleased = await create();
  await engine.advanceTestClock(scope.account, 3_600);
  for (const id of [released, halfReleased]) {
    expect((await engine.getRun(scope, id)).awaiting?.step).toBe('submit_instruction');
    await approve(engine, id, 'submit_instruction', 'ops:maker');
    await approve(engine, id, 'release_approval', 'ops:checker-1');
  }
  await approve(engine, released, 'release_approval', 'ops:checker-2');
  const held = await create();
  const waiting = async (id: string) => (await engine.getRun(scope, id)).awaiting;
  expect((await waiting(held))?.step).toBe('hold_funds');
  expect(await waiting(halfReleased)).toMatchObject({ step: 'release_approval', approvals: 1 });
  expect((await waiting(released))?.step).toBe('execute_payout');
  return { held, halfReleased, released };
}

describe('engine.upgradeRuns', () => {
  it('moves the waiting runs the proof lets move, keeps the rest, and they all finish', async () => {
    expect(report.ok).toBe(true);
    const engine = newEngine();
    const { held, halfReleased, released } = await parkedRuns(engine);
    const before = await engine.getRun(scope, halfReleased);

    const dry = await engine.upgradeRuns(scope, { report, dryRun: true });
    expect(dry.counts).toMatchObject({ would_upgrade: 2, stays: 1, upgraded: 0, refused: 0 });
    expect((await engine.getRun(scope, held)).scenario_id).toBe(v1.id);

    // Each run is told as it is done with, a moved one after its transaction committed.
    const told: Promise<string>[] = [];
    const applied = await engine.upgradeRuns(scope, {
      report,
      actor: OPERATOR,
      onRun: (run) =>
        told.push(
          engine.getRun(scope, run.run_id).then((read) => `${run.outcome} ${read.scenario_id}`),
        ),
    });
    expect((await Promise.all(told)).sort()).toEqual(
      [`stays ${v1.id}`, `upgraded ${v2.id}`, `upgraded ${v2.id}`].sort(),
    );
    const byRun = new Map(applied.runs.map((run) => [run.run_id, run]));
    expect(byRun.get(held)).toMatchObject({
      outcome: 'upgraded',
      state: 'hold_funds',
      maps_to: 'hold_funds',
    });
    expect(byRun.get(halfReleased)).toMatchObject({
      outcome: 'upgraded',
      state: 'release_approval',
    });
    expect(byRun.get(released)).toMatchObject({ outcome: 'stays', state: 'execute_payout' });

    // The moved run waits where it did, with its decision and deadline, on v2.
    const moved = await engine.getRun(scope, halfReleased);
    expect(moved).toMatchObject({ scenario_id: v2.id, scenario_digest: v2.digest });
    expect(moved.awaiting).toEqual(before.awaiting);
    expect(moved.upgrades).toEqual([
      expect.objectContaining({
        from: { scenario_id: v1.id, scenario_digest: v1.digest },
        upgraded_by: OPERATOR,
      }),
    ]);
    const records = await engine.listEvents(scope, halfReleased);
    const upgraded = records.at(-1)!;
    expect(upgraded).toMatchObject({
      type: 'program_run.upgraded',
      step: 'release_approval',
      data: {
        from: { scenario_id: v1.id, scenario_digest: v1.digest },
        to: { scenario_id: v2.id, scenario_digest: v2.digest },
        state: 'release_approval',
        maps_to: 'release_approval',
        migration_digest: report.migrationDigest,
        upgraded_by: OPERATOR,
      },
    });

    // Nothing is moved twice: only the run that stays is still on v1.
    const again = await engine.upgradeRuns(scope, { report, actor: OPERATOR });
    expect(again.runs.map((run) => [run.run_id, run.outcome])).toEqual([[released, 'stays']]);

    // Every run finishes: the moved ones on v2 (screened again), the other on v1.
    await approve(engine, halfReleased, 'release_approval', 'ops:checker-2');
    await engine.advanceTestClock(scope.account, 3_600);
    await approve(engine, held, 'submit_instruction', 'ops:maker');
    await approve(engine, held, 'release_approval', 'ops:checker-1');
    await approve(engine, held, 'release_approval', 'ops:checker-2');
    await engine.advanceTestClock(scope.account, 3_600);
    for (const [id, version] of [
      [held, v2],
      [halfReleased, v2],
      [released, v1],
    ] as const) {
      const done = await engine.getRun(scope, id);
      expect(done, id).toMatchObject({ status: 'completed', scenario_id: version.id });
      const history = await engine.listEvents(scope, id);
      expect(verifyChain(history, { expectedHead: done.evidence.chain_head })).toMatchObject({
        ok: true,
      });
      const steps = history.map((record) => record.step);
      expect(steps.includes('rescreen_beneficiary'), id).toBe(version === v2);
    }
  });

  it('counts each version’s runs by status, and says when the old one has drained', async () => {
    // A store written before countRunsByVersion: the engine counts by listing the runs.
    const memory = createMemoryStore();
    const older: StoreV1 = {
      ...memory,
      transaction: (work, options) =>
        memory.transaction(
          (tx) =>
            work(
              new Proxy(tx, {
                get: (target, property): unknown =>
                  property === 'countRunsByVersion' ? undefined : Reflect.get(target, property),
              }),
            ),
          options,
        ),
    };
    for (const store of [createMemoryStore(), older]) {
      const engine = newEngine(store);
      expect(await engine.versionUsage(scope, 'bank-payout')).toEqual([
        expect.objectContaining({ scenario_id: v1.id, loaded: true, total: 0, drained: true }),
        expect.objectContaining({ scenario_id: v2.id, loaded: true, total: 0, drained: true }),
      ]);
      const { released } = await parkedRuns(engine);
      await engine.upgradeRuns(scope, { report, actor: OPERATOR });
      expect(await engine.versionUsage(scope, 'bank-payout')).toEqual([
        {
          object: 'scenario_version_usage',
          scenario_id: v1.id,
          loaded: true,
          by_status: { waiting: 1 },
          total: 1,
          unfinished: 1,
          drained: false,
        },
        {
          object: 'scenario_version_usage',
          scenario_id: v2.id,
          loaded: true,
          by_status: { waiting: 2 },
          total: 2,
          unfinished: 2,
          drained: false,
        },
      ]);
      // The bank answers the payout: the last run of v1 completes, and v1 has drained.
      await engine.advanceTestClock(scope.account, 3_600);
      expect((await engine.getRun(scope, released)).status).toBe('completed');
      const [old] = await engine.versionUsage(scope, 'bank-payout');
      expect(old).toMatchObject({ by_status: { completed: 1 }, unfinished: 0, drained: true });
    }
    const engine = newEngine();
    for (const name of ['no-such-scenario', 'bank-payout@v1', 'Bank'])
      await expectEngineError(engine.versionUsage(scope, name), 'scenario_not_found');
  });

  it('refuses a proof about other files than the engine loads', async () => {
    const engine = newEngine();
    await expectEngineError(
      engine.upgradeRuns(scope, {
        report: { ...report, toDigest: `sha256:${'0'.repeat(64)}` },
        actor: OPERATOR,
      }),
      'upgrade_not_proven',
    );
    const unloaded = checkUpgrade(file(SCENARIO_DIRECTORY, 'bank-payout@v1.yaml'), {
      text: 'scenario: [',
      file: 'broken.yaml',
    });
    await expectEngineError(
      engine.upgradeRuns(scope, { report: unloaded, actor: OPERATOR }),
      'upgrade_not_proven',
    );
  });

  it('moves no run without naming who moves it, and refuses a name that is no actor', async () => {
    const engine = newEngine();
    const { held } = await parkedRuns(engine);
    for (const actor of [undefined, '', ' ops:alice', 'ops:\u0000alice', 'x'.repeat(129)])
      await expectEngineError(
        engine.upgradeRuns(scope, { report, ...(actor === undefined ? {} : { actor }) }),
        'invalid_upgrade_request',
      );
    expect((await engine.getRun(scope, held)).scenario_id).toBe(v1.id);
    // A dry run moves nothing, so it needs no actor.
    const dry = await engine.upgradeRuns(scope, { report, dryRun: true });
    expect(dry.counts.would_upgrade).toBe(2);
  });

  it('leaves runs at a step the proof found unsafe on the old version, saying why', async () => {
    const engine = newEngine();
    const { held } = await parkedRuns(engine);
    const unsafe: UpgradeReport = {
      ...report,
      states: report.states.map((state) =>
        state.state === 'hold_funds'
          ? {
              ...state,
              problems: [
                {
                  code: 'upgrade_rerequests_handoff',
                  message: 'the hold would be requested again',
                  path: [],
                  file: 'bank-payout@v2.yaml',
                  line: 1,
                  column: 1,
                },
              ],
            }
          : state,
      ),
    };
    const result = await engine.upgradeRuns(scope, { report: unsafe, actor: OPERATOR });
    expect(result.runs.find((run) => run.run_id === held)).toMatchObject({
      outcome: 'refused',
      reason: 'upgrade_rerequests_handoff: the hold would be requested again',
    });
    expect((await engine.getRun(scope, held)).scenario_id).toBe(v1.id);
  });
});
