import type { CompiledScenario } from '@programrun/dsl';
import type { ScenarioCatalogue } from '../catalogue/scenario-catalogue.js';
import { EngineError } from '../errors.js';
import type { RunForTransition, Scope, StoredRun, StoreTransactionV1 } from '../store/store-v1.js';

/** A run whose machine has started (every run except one suspended in intake). */
export type StartedRun = StoredRun & { readonly snapshot: NonNullable<StoredRun['snapshot']> };

/** Whether the run's machine has started. */
export const isStarted = (run: StoredRun): run is StartedRun => run.snapshot !== null;

const runNotFound = (id: string) =>
  new EngineError('run_not_found', `No run ${id} in this account and environment.`);

/**
 * The run `id` of the scope, or `run_not_found` (another scope's run is not found either).
 */
export async function loadRun(
  tx: StoreTransactionV1,
  scope: Scope,
  id: string,
): Promise<StoredRun> {
  const run = await tx.getRun(scope, id);
  if (!run) throw runNotFound(id);
  return run;
}

/**
 * The run `id` of the scope with what a transition reads besides (its pending timers, the
 * account's test clock), in one store operation; `run_not_found` as {@link loadRun}.
 */
export async function loadRunForTransition(
  tx: StoreTransactionV1,
  scope: Scope,
  id: string,
): Promise<RunForTransition> {
  const loaded = await tx.loadRunForTransition(scope, id);
  if (!loaded) throw runNotFound(id);
  return loaded;
}

/**
 * The compiled scenario a run was created with, refusing one whose digest changed since
 * (`scenario_digest_mismatch`): published scenario versions are immutable.
 */
export function scenarioOfRun(catalogue: ScenarioCatalogue, run: StoredRun): CompiledScenario {
  const compiled = catalogue.get(run.scenario_id);
  if (compiled.digest !== run.record.scenario_digest) {
    throw new EngineError(
      'scenario_digest_mismatch',
      `Run ${run.id} was created with ${run.scenario_id} digest ${run.record.scenario_digest}; this engine has ${compiled.digest}. Published scenario versions must not change.`,
    );
  }
  return compiled;
}
