// What the upgrade tests share: an engine on a virtual clock that loads both versions, an
// approval signal, and bank-payout@v1 as a live run has it.
import { readFileSync } from 'node:fs';
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  seededIds,
  type Engine,
  type Scope,
  type StoreV1,
} from '../src/index.js';
import { SCENARIO_DIRECTORY } from './scenarios.js';

/**
 * bank-payout@v1 on the public demo track, so that it runs live (connectors call partners
 * only in live).
 */
export const LIVE_BANK_PAYOUT_V1 = {
  text: readFileSync(
    new URL('bank-payout@v1.yaml', `file://${SCENARIO_DIRECTORY}`),
    'utf8',
  ).replace('asset_track: production_placeholder', 'asset_track: public_demo'),
  file: 'bank-payout@v1.yaml',
};

/** An engine loading both versions, on a virtual clock, with ids seeded by `seed`. */
export function upgradeEngine(
  versions: readonly [CompiledScenario, CompiledScenario],
  seed: string,
  store: StoreV1 = createMemoryStore(),
): Engine {
  return createEngine({
    store,
    scenarios: [...versions],
    testClock: createVirtualClock('2026-03-02T09:00:00.000Z'),
    ids: seededIds(seed),
  });
}

/** `approver` approves the approval `step` of a run. */
export const approve = (
  engine: Engine,
  scope: Scope,
  runId: string,
  step: string,
  approver: string,
) => engine.signal(scope, runId, { kind: 'approval', step, decision: 'approve', approver });
