// What the upgrade tests share: an engine on a virtual clock that loads both versions, and
// an approval signal.
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
