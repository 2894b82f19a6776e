// Upgraded runs keep every property: for bank-payout and each catalogue scenario's v2 (a
// longer expiry or timeout, a renamed step, a split stage, a new route alternative), a run
// parked at every waiting step of v1 that the coverage search reaches is moved to v2 there
// (`engine.upgradeRuns`, by the proof of `checkUpgrade`), finishes on v2, and every
// property `checkScenario` judges on a trace holds on it, judged against v2.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkUpgrade,
  compile,
  type CompiledScenario,
  type UpgradeFile,
  type UpgradeReport,
} from '@programrun/dsl';
import { createKeySet, privateJwkFromSeed, type JsonObject } from '@programrun/evidence';
import {
  catalogueUpgrades,
  type CatalogueUpgrade,
} from '../../dsl/test/fixtures/upgrades/catalogue-upgrades.js';
import { exploreEdges, type DirectedCase } from '../src/explore-edges.js';
import { happyPathPlan, runTrace, TRACE_CHECKS, terminationBound } from '../src/index.js';

const UPGRADES = new URL('../../dsl/test/fixtures/upgrades/', import.meta.url);
const file = (url: URL, name: string): UpgradeFile => ({
  text: readFileSync(url, 'utf8'),
  file: name,
});
const BANK_PAYOUT: CatalogueUpgrade = {
  id: 'bank-payout',
  change: 'a re-screening before the payout',
  from: file(
    new URL('../../../scenarios/bank-payout@v1.yaml', import.meta.url),
    'scenarios/bank-payout@v1.yaml',
  ),
  to: file(new URL('bank-payout@v2.yaml', UPGRADES), 'scenarios/bank-payout@v2.yaml'),
  migration: file(new URL('bank-payout@v1-to-v2.yaml', UPGRADES), 'bank-payout@v1-to-v2.yaml'),
};
const keys = createKeySet([
  { key: privateJwkFromSeed(new Uint8Array(32).fill(7)), status: 'active' },
]);

/** For each waiting step of v1 whose runs the proof moves, a case and how far to run it. */
async function parkingPlaces(
  v1: CompiledScenario,
  report: UpgradeReport,
): Promise<{
  places: Map<string, { found: DirectedCase; afterActions: number }>;
  movable: string[];
}> {
  const movable = report.states
    .filter((state) => !state.stays && state.problems.length === 0)
    .map((state) => state.state);
  const cases: DirectedCase[] = [
    {
      inputs: v1.definition.example_inputs as JsonObject,
      plan: happyPathPlan(),
      seed: 0,
      edges: [],
    },
    ...(await exploreEdges(v1)),
  ];
  const places = new Map<string, { found: DirectedCase; afterActions: number }>();
  for (const found of cases) {
    if (places.size === movable.length) break;
    const trace = await runTrace(v1, found.inputs, found.plan, `seed-${found.seed}`, {
      contexts: false,
    });
    trace.awaitedAfterActions.forEach((step, afterActions) => {
      if (step !== null && movable.includes(step) && !places.has(step))
        places.set(step, { found, afterActions });
    });
  }
  return { places, movable };
}

describe('runs upgraded at every waiting step of v1', () => {
  it.each(
    [BANK_PAYOUT, ...catalogueUpgrades()].map((entry) => [entry.id, entry.change, entry] as const),
  )(
    '%s@v1 → v2 (%s): each moves, finishes on v2, and every property holds',
    async (_id, _change, { from, to, migration }) => {
      const report = checkUpgrade(from, to, migration);
      expect(report.ok).toBe(true);
      const [v1, v2] = [from, to].map(({ text, file: name }) =>
        compile(text, name === undefined ? {} : { file: name }),
      ) as [CompiledScenario, CompiledScenario];
      const { places, movable } = await parkingPlaces(v1, report);
      expect([...places.keys()].sort()).toEqual([...movable].sort());
      for (const [state, { found, afterActions }] of places) {
        const trace = await runTrace(v1, found.inputs, found.plan, `seed-${found.seed}`, {
          drainRounds: terminationBound(v2),
          evidenceKeys: keys,
          upgrade: { afterActions, to: v2, report },
        });
        expect(trace.log, state).toContain(`upgrade to ${v2.id}: upgraded`);
        expect(trace.run.scenario_id, state).toBe(v2.id);
        for (const [property, check] of Object.entries(TRACE_CHECKS))
          expect(
            check(v2, trace, keys.publicJwks()),
            `${state}: ${property}\n${trace.log.join('\n')}`,
          ).toEqual([]);
      }
    },
    120_000,
  );
});
