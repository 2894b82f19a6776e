// engine.upgradeRuns on a SQL store (PGlite): a waiting run moves to v2 in one write, its
// run record keeps the upgrade, and its events keep the bodies they had (each names the
// version the run was on when its record was written), read before and after the move.
import { describe, expect, it } from 'vitest';
import {
  createEngine,
  createVirtualClock,
  type Scope,
  type StoreV1,
  type WebhookEventRow,
} from '@programrun/engine';
import { bankPayoutUpgrade } from './support/bank-payout-upgrade.js';
import { closingAfter, usePGliteSchemas } from './support/pglite-schemas.js';

const withFreshStore = closingAfter(usePGliteSchemas('upgrades'));
const { v1, v2, report } = bankPayoutUpgrade();
const scope: Scope = { account: 'acct_upgrades', environment: 'test' };

const eventsOf = async (store: StoreV1, runId: string): Promise<readonly WebhookEventRow[]> =>
  (await store.transaction((tx) => tx.listWebhookEvents(scope, { run_id: runId, limit: 100 })))
    .data;

describe('engine.upgradeRuns on a SQL store', () => {
  it('moves a waiting run whole, and no event body changes', () =>
    withFreshStore(async (store) => {
      const engine = createEngine({
        store,
        scenarios: [v1, v2],
        testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
      });
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
});
