// engine.upgradeRuns on a SQL store (PGlite): a waiting run moves to v2 in one write, its
// run record keeps the upgrade, and its events keep the bodies they had (each names the
// version the run was on when its record was written), read before and after the move; a
// run waiting on a renamed partner has its queued job moved to the new name with it.
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
      const v1Text = readFileSync(
        new URL('../../../scenarios/bank-payout@v1.yaml', import.meta.url),
        'utf8',
      );
      const files = [
        { text: v1Text, file: 'bank-payout@v1.yaml' },
        {
          text: v1Text
            .replace('version: v1', 'version: v2')
            .replaceAll('safeguarding_bank', 'safeguarding_custodian'),
          file: 'bank-payout@v2.yaml',
        },
      ] as const;
      const renamed = checkUpgrade(files[0], files[1], {
        text: 'scenario: bank-payout\nfrom: v1\nto: v2\nrenames:\n  parties:\n    safeguarding_bank: safeguarding_custodian\n',
        file: 'bank-payout@v1-to-v2.yaml',
      });
      const [from, to] = files.map(({ text, file }) => compile(text, { file })) as [
        CompiledScenario,
        CompiledScenario,
      ];
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
});
