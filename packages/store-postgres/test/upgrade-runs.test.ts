// engine.upgradeRuns on a SQL store (PGlite): a waiting run moves to v2 in one write, its
// run record keeps the upgrade, and its events keep the bodies they had (each names the
// version the run was on when its record was written), read before and after the move; a
// run waiting on a renamed partner has its queued job moved to the new name with it, and
// one whose deadline the migration moves has its timer replaced and its job's deadline moved.
import { describe, expect, it } from 'vitest';
import {
  createEngine,
  createVirtualClock,
  type Scope,
  type StoreV1,
  type WebhookEventRow,
} from '@programrun/engine';
import { readFileSync } from 'node:fs';
import { checkUpgrade, compile, type CompiledScenario } from '@programrun/dsl';
import { bankPayoutUpgrade } from './support/bank-payout-upgrade.js';
import { closingAfter, usePGliteSchemas } from './support/pglite-schemas.js';

const withFreshStore = closingAfter(usePGliteSchemas('upgrades'));
const { v1, v2, report } = bankPayoutUpgrade();
const scope: Scope = { account: 'acct_upgrades', environment: 'test' };

const V1_TEXT = readFileSync(
  new URL('../../../scenarios/bank-payout@v1.yaml', import.meta.url),
  'utf8',
);

/**
 * bank-payout@v1 and a v2 made by `edit`, compiled, with the proof of the migration whose
 * body (after its three names) is `migration`.
 */
function editedUpgrade(edit: (v1: string) => string, migration: string) {
  const files = [
    { text: V1_TEXT, file: 'bank-payout@v1.yaml' },
    { text: edit(V1_TEXT.replace('version: v1', 'version: v2')), file: 'bank-payout@v2.yaml' },
  ] as const;
  const proof = checkUpgrade(files[0], files[1], {
    text: `scenario: bank-payout\nfrom: v1\nto: v2\n${migration}`,
    file: 'bank-payout@v1-to-v2.yaml',
  });
  const [from, to] = files.map(({ text, file }) => compile(text, { file })) as [
    CompiledScenario,
    CompiledScenario,
  ];
  return { from, to, proof };
}

/** An engine on `store` loading both versions, on a virtual clock. */
const engineOn = (store: StoreV1, scenarios: readonly CompiledScenario[]) =>
  createEngine({
    store,
    scenarios: [...scenarios],
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
  });

const eventsOf = async (store: StoreV1, runId: string): Promise<readonly WebhookEventRow[]> =>
  (await store.transaction((tx) => tx.listWebhookEvents(scope, { run_id: runId, limit: 100 })))
    .data;

describe('engine.upgradeRuns on a SQL store', () => {
  it('moves a waiting run whole, and no event body changes', () =>
    withFreshStore(async (store) => {
      const engine = engineOn(store, [v1, v2]);
      const { run } = await engine.createRun(scope, {
        scenario_id: v1.id,
        inputs: v1.definition.example_inputs,
      });
      const before = await eventsOf(store, run.id);
      expect(before.length).toBeGreaterThan(0);

      const result = await engine.upgradeRuns(scope, { report, actor: 'ops:upgrader' });
      expect(result.counts).toMatchObject({ upgraded: 1 });
      const moved = await engine.getRun(scope, run.id);
      const history = await engine.listEvents(scope, run.id);
      const upgraded = history.at(-1)!;
      expect(upgraded.type).toBe('program_run.upgraded');
      expect(moved).toMatchObject({
        scenario_id: v2.id,
        upgrades: [
          {
            sequence: upgraded.sequence,
            upgraded_at: upgraded.created,
            upgraded_by: 'ops:upgrader',
            from: { scenario_id: v1.id, scenario_digest: v1.digest },
            to: { scenario_id: v2.id, scenario_digest: v2.digest },
            state: 'hold_funds',
            maps_to: 'hold_funds',
          },
        ],
      });

      const after = await eventsOf(store, run.id);
      const bodies = new Map(after.map((event) => [event.id, event.body]));
      for (const event of before) expect(bodies.get(event.id), event.type).toBe(event.body);
      const named = (body: string) =>
        (JSON.parse(body) as { run: { scenario_id: string } }).run.scenario_id;
      expect(before.map((event) => named(event.body))).toEqual(before.map(() => v1.id));
      expect(named(bodies.get(upgraded.id)!)).toBe(v2.id);

      // On v2, the run goes on: the simulated partners answer, and it waits for the maker.
      await engine.advanceTestClock(scope.account, 3_600);
      expect((await engine.getRun(scope, run.id)).awaiting?.step).toBe('submit_instruction');
    }));

  it('moves the queued job of a renamed partner to its new name, in the same transaction', () =>
    withFreshStore(async (store) => {
      const {
        from,
        to,
        proof: renamed,
      } = editedUpgrade(
        (v2) => v2.replaceAll('safeguarding_bank', 'safeguarding_custodian'),
        'renames:\n  parties:\n    safeguarding_bank: safeguarding_custodian\n',
      );
      const engine = engineOn(store, [from, to]);
      const { run } = await engine.createRun(scope, {
        scenario_id: from.id,
        inputs: from.definition.example_inputs,
      });
      const jobs = () => store.transaction((tx) => tx.handoffJobsOfRun(run.id));
      const [queued] = await jobs();
      expect(queued).toMatchObject({ step: 'hold_funds', party: 'safeguarding_bank' });

      const result = await engine.upgradeRuns(scope, { report: renamed, actor: 'ops:upgrader' });
      expect(result.counts).toMatchObject({ upgraded: 1 });
      expect(await jobs()).toEqual([
        { ...queued, party: 'safeguarding_custodian', updated_at: expect.any(String) },
      ]);
      // The sandbox answers the moved job, and the run goes on on v2.
      await engine.advanceTestClock(scope.account, 3_600);
      const moved = await engine.getRun(scope, run.id);
      expect(moved).toMatchObject({ scenario_id: to.id });
      expect(moved.awaiting?.step).toBe('submit_instruction');
    }));

  it("replaces a waiting run's timer and its job's deadline when the migration moves them", () =>
    withFreshStore(async (store) => {
      const {
        from,
        to,
        proof: moving,
      } = editedUpgrade(
        (v2) =>
          v2.replace(
            '          reference: inputs.payout_reference\n        timeout: PT5M\n',
            '          reference: inputs.payout_reference\n        timeout: PT15M\n',
          ),
        'deadlines:\n  hold_funds: new_version\n',
      );
      const engine = engineOn(store, [from, to]);
      const { run } = await engine.createRun(scope, {
        scenario_id: from.id,
        inputs: from.definition.example_inputs,
      });
      const state = () =>
        store.transaction(async (tx) => ({
          timers: await tx.pendingTimers(run.id),
          jobs: await tx.handoffJobsOfRun(run.id),
        }));
      const before = await state();
      expect(before.timers).toEqual([
        expect.objectContaining({ step: 'hold_funds', kind: 'timeout' }),
      ]);
      const due = Date.parse(before.timers[0]!.due_at);

      await engine.upgradeRuns(scope, { report: moving, actor: 'ops:upgrader' });
      const after = await state();
      const moved = new Date(due + 10 * 60_000).toISOString();
      expect(after.timers).toEqual([
        expect.objectContaining({ step: 'hold_funds', kind: 'timeout', due_at: moved }),
      ]);
      expect(after.timers[0]!.id).not.toBe(before.timers[0]!.id);
      expect(after.jobs).toEqual([
        expect.objectContaining({ step: 'hold_funds', deadline: moved }),
      ]);
      expect((await engine.getRun(scope, run.id)).awaiting?.deadline).toBe(moved);
    }));
});
