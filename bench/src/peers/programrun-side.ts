// programrun's side of bench:peers: an engine over the PostgreSQL store with the bench-only
// scenarios of bench/scenarios (N sequential handoffs to one partner; one handoff for the
// event cycle), live environment with no connector for that partner, so each handoff just
// waits for its answer. A workflow is one run: createRun, then one engine.signal per
// awaited handoff (confirmed, with the attempt's pik_ key) until the run completes. No
// scheduler or handoff workers are started: the engine polls nothing in the background.
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@programrun/dsl/node';
import { createEngine, partnerIdempotencyKey, type Scope } from '@programrun/engine';
import { createPostgresStore } from '@programrun/store-postgres';
import type { Workflow } from './window.js';

/** The engine's workflows, and how to close its store. */
export interface ProgramrunSide {
  /** A run of `bench-sequential-<steps>@v1` (6 or 20) to completion. */
  sequential(steps: 6 | 20): Workflow;
  /** A run of `bench-event@v1`: one handoff, answered by one signal. */
  readonly event: Workflow;
  close(): Promise<void>;
}

/**
 * Opens the store in `schema` (migrated there) and an engine with the bench scenarios,
 * committing in batches when `batchMs` is given.
 *
 * @example
 * ```ts
 * const programrun = await openProgramrunSide(url, 'bench_x_peers', 10);
 * await programrun.sequential(20)(0);
 * ```
 */
export async function openProgramrunSide(
  url: string,
  schema: string,
  pool: number,
  batchMs?: number,
): Promise<ProgramrunSide> {
  // bench/scenarios, loaded, checked and compiled (a ScenarioError lists every problem).
  const scenarios = await loadCatalogue(fileURLToPath(new URL('../../scenarios', import.meta.url)));
  const store = await createPostgresStore({ connectionString: url, schema, maxConnections: pool });
  // With `batchMs`, signals and creates commit in batches (`createEngine({ batch })`).
  const engine = createEngine({
    store,
    scenarios,
    ...(batchMs === undefined ? {} : { batch: { maxWaitMs: batchMs } }),
  });
  const scope: Scope = { account: 'acct_peers', environment: 'live' };
  const inputs = { reference: 'bench-0001' };

  const drive = (scenarioId: string, steps: number): Workflow => {
    engine.prepareRun(scope, { scenario_id: scenarioId, inputs }); // fails early if unknown
    return async () => {
      let { run } = await engine.createRun(scope, { scenario_id: scenarioId, inputs });
      let answered = 0;
      while (run.awaiting) {
        const { step } = run.awaiting;
        const key = partnerIdempotencyKey(run.id, step, 1);
        const result = await engine.signal(scope, run.id, {
          kind: 'handoff',
          step,
          outcome: 'confirmed',
          reference: `ref_${key}`,
          data: { ok: true },
          idempotency_key: key,
        });
        if (!result.applied) throw new Error(`the answer to ${run.id} ${step} was not applied`);
        run = result.run;
        answered += 1;
      }
      if (run.status !== 'completed' || answered !== steps)
        throw new Error(`${scenarioId} run ended ${run.status} after ${answered} answers`);
    };
  };
  const sequential = {
    6: drive('bench-sequential-6@v1', 6),
    20: drive('bench-sequential-20@v1', 20),
  };
  return {
    sequential: (steps) => sequential[steps],
    event: drive('bench-event@v1', 1),
    close: () => store.close(),
  };
}
