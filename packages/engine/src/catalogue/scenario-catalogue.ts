import type { CompiledScenario } from '@programrun/dsl';
import { EngineError } from '../errors.js';

/** The scenarios an engine runs, by id. */
export interface ScenarioCatalogue {
  /** Every scenario, sorted by id. */
  list(): readonly CompiledScenario[];
  /** The scenario, or a `scenario_not_found` EngineError. */
  get(id: string): CompiledScenario;
  has(id: string): boolean;
}

/**
 * A catalogue of compiled scenarios; ids must be unique.
 *
 * @example
 * ```ts
 * const catalogue = createScenarioCatalogue(await loadCatalogue('scenarios'));
 * catalogue.get('wallet-delivery@v1').digest;
 * ```
 */
export function createScenarioCatalogue(scenarios: readonly CompiledScenario[]): ScenarioCatalogue {
  const byId = new Map<string, CompiledScenario>();
  for (const scenario of scenarios) {
    if (byId.has(scenario.id)) throw new Error(`scenario ${scenario.id} is in the catalogue twice`);
    byId.set(scenario.id, scenario);
  }
  const sorted = [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  return {
    list: () => sorted,
    has: (id) => byId.has(id),
    get(id) {
      const scenario = byId.get(id);
      if (!scenario) {
        const known = sorted.map((item) => item.id).join(', ');
        throw new EngineError(
          'scenario_not_found',
          `No scenario "${id}". Known scenarios: ${known}.`,
          [
            {
              pointer: '/scenario_id',
              code: 'scenario_not_found',
              message: `is not a known scenario (${known})`,
            },
          ],
        );
      }
      return scenario;
    },
  };
}
