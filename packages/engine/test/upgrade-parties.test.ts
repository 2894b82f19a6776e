// engine.upgradeRuns with a party rename: bank-payout@v2 calls the safeguarding bank
// `safeguarding_custodian`. A live run whose hold is queued for the partner moves to v2 and
// its call goes to the renamed party's connector, with the same request and partner key;
// the old name's connector is never called. A run whose call is in flight stays on v1 until
// the call is over.
import { describe, expect, it } from 'vitest';
import { checkUpgrade, compile, type CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  type Engine,
  type HandoffConnector,
  type HandoffRequest,
  type Scope,
} from '../src/index.js';
import { LIVE_BANK_PAYOUT_V1 } from './upgrade-support.js';

const V1 = LIVE_BANK_PAYOUT_V1;
const V2 = {
  text: V1.text
    .replace('version: v1', 'version: v2')
    .replaceAll('safeguarding_bank', 'safeguarding_custodian'),
  file: 'bank-payout@v2.yaml',
};
const MIGRATION = {
  text: 'scenario: bank-payout\nfrom: v1\nto: v2\nrenames:\n  parties:\n    safeguarding_bank: safeguarding_custodian\n',
  file: 'bank-payout@v1-to-v2.yaml',
};
const [v1, v2] = [V1, V2].map(({ text, file }) => compile(text, { file })) as [
  CompiledScenario,
  CompiledScenario,
];
const report = checkUpgrade(V1, V2, MIGRATION);
const scope: Scope = { account: 'acct_upgrade_parties', environment: 'live' };
const OPERATOR = 'ops:upgrader';

/** A live engine whose two connectors (old and new name) note what they are asked. */
function liveEngine() {
  const calls: { party: string; request: HandoffRequest }[] = [];
  const connector =
    (party: string): HandoffConnector =>
    (request) => {
      calls.push({ party, request });
      return Promise.resolve({
        outcome: 'confirmed',
        reference: `hold-${request.idempotency_key}`,
        data: { hold_id: 'hold-PO-2026-000412', held_amount: request.data.amount! },
      });
    };
  const engine: Engine = createEngine({
    store: createMemoryStore(),
    scenarios: [v1, v2],
    connectors: {
      safeguarding_bank: { connector: connector('safeguarding_bank') },
      safeguarding_custodian: { connector: connector('safeguarding_custodian') },
    },
  });
  return { engine, calls };
}

async function heldRun(engine: Engine): Promise<string> {
  const inputs = v1.definition.example_inputs;
  const { run } = await engine.createRun(scope, { scenario_id: v1.id, inputs });
  expect(run.awaiting).toMatchObject({ step: 'hold_funds', party: 'safeguarding_bank' });
  return run.id;
}

describe('engine.upgradeRuns with a party rename', () => {
  it("calls the renamed party's connector for a queued handoff, with the same request", async () => {
    expect(report.problems).toEqual([]);
    const { engine, calls } = liveEngine();
    const runId = await heldRun(engine);
    const queued = await engine.unitOfWork(scope, ({ tx }) => tx.handoffJobsOfRun(runId));

    const result = await engine.upgradeRuns(scope, { report, actor: OPERATOR });
    expect(result.runs).toEqual([expect.objectContaining({ run_id: runId, outcome: 'upgraded' })]);
    const moved = await engine.getRun(scope, runId);
    expect(moved).toMatchObject({ scenario_id: v2.id });
    expect(moved.awaiting).toMatchObject({ step: 'hold_funds', party: 'safeguarding_custodian' });
    expect((await engine.listEvents(scope, runId)).at(-1)).toMatchObject({
      type: 'program_run.upgraded',
      data: { party_renames: { safeguarding_bank: 'safeguarding_custodian' } },
    });

    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect(calls).toEqual([
      { party: 'safeguarding_custodian', request: queued[0]!.request as unknown as HandoffRequest },
    ]);
    const answered = await engine.getRun(scope, runId);
    expect(answered.awaiting?.step).toBe('screen_beneficiary');
  });

  it('leaves a run whose call to the partner is in flight on v1, and moves it once the call is over', async () => {
    const { engine } = liveEngine();
    const runId = await heldRun(engine);
    // Another host's worker holds the call.
    const now = new Date();
    const claim = {
      environment: 'live',
      party: 'safeguarding_bank',
      due_at: now.toISOString(),
      lease_now: now.toISOString(),
      lease_until: new Date(now.getTime() + 60_000).toISOString(),
      owner: 'wkr_other_host',
      limit: 1,
    } as const;
    const [leased] = await engine.unitOfWork(scope, ({ tx }) => tx.claimHandoffJobs(claim));
    expect(leased?.run_id).toBe(runId);

    const dry = await engine.upgradeRuns(scope, { report, dryRun: true });
    const [refused] = (await engine.upgradeRuns(scope, { report, actor: OPERATOR })).runs;
    for (const outcome of [dry.runs[0], refused])
      expect(outcome).toMatchObject({ outcome: 'refused', state: 'hold_funds' });
    expect(refused?.reason).toContain('a call to safeguarding_bank is in flight');
    expect((await engine.getRun(scope, runId)).scenario_id).toBe(v1.id);

    // The call is over (its lease given back): the run moves.
    await engine.unitOfWork(scope, ({ tx }) =>
      tx.updateHandoffJob({ ...leased!, lease_owner: null, lease_until: null }, leased!),
    );
    const [upgraded] = (await engine.upgradeRuns(scope, { report, actor: OPERATOR })).runs;
    expect(upgraded).toMatchObject({ outcome: 'upgraded' });
  });
});
