// An engine on a fresh memory store for the tests: the test clock starts at TEST_START and
// ids are seeded, so runs are reproducible; options override any of it.
import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  seededIds,
  type Engine,
  type EngineOptions,
} from '../src/index.js';

/** When the tests' test clocks start. */
export const TEST_START = '2026-03-02T09:00:00.000Z';

/** A new engine over `scenarios` with ids seeded by `seed`. */
export function memoryEngine(
  scenarios: readonly CompiledScenario[],
  seed: string,
  options: Partial<EngineOptions> = {},
): Engine {
  return createEngine({
    store: createMemoryStore(),
    scenarios,
    testClock: createVirtualClock(TEST_START),
    ids: seededIds(seed),
    ...options,
  });
}
