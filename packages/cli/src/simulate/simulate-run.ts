import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  FINAL_STATUSES,
  seededIds,
  type LifecycleRecord,
  type RunRecord,
  type Scope,
} from '@programrun/engine';

/** What `simulate` does at each wait besides approving and letting partners answer. */
export interface SimulationOptions {
  /** Approval steps (or check steps with a review) to reject instead of approve. */
  readonly reject: ReadonlySet<string>;
  /** Handoff steps whose partner reports a failure (every attempt). */
  readonly fail: ReadonlySet<string>;
  /** Seeds the run's ids: the same scenario, inputs, options and seed give the same records. */
  readonly seed: number;
}

/** A finished simulation. */
export interface Simulation {
  readonly run: RunRecord;
  readonly records: readonly LifecycleRecord[];
  /** Steps named by `reject` or `fail` that the run acted on. */
  readonly used: ReadonlySet<string>;
  /** True when the run reached a final status. */
  readonly finished: boolean;
}

const SCOPE: Scope = { account: 'acct_simulate', environment: 'test' };
/** The virtual clock starts where `@programrun/testing` traces start. */
export const SIMULATION_START = '2026-06-01T08:00:00.000Z';
/** Moves before a run that never ends is given up on. */
const MAX_MOVES = 2_000;

/**
 * Runs a scenario once in the test environment: a real engine on a memory store, a
 * virtual clock and seeded ids. Every approval is approved (each decision by a new
 * approver, so quorum and four eyes hold) unless its step is in `reject`; simulated
 * partners answer after their scenario latency unless the handoff is in `fail`; the clock
 * moves to the next timer whenever the run waits for one.
 *
 * @example
 * ```ts
 * const { run, records } = await simulateRun(compiled, compiled.definition.example_inputs, { reject: new Set(), fail: new Set(), seed: 0 });
 * ```
 */
export async function simulateRun(
  compiled: CompiledScenario,
  inputs: Readonly<Record<string, unknown>>,
  options: SimulationOptions,
): Promise<Simulation> {
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios: [compiled],
    testClock: createVirtualClock(SIMULATION_START),
    ids: seededIds(`simulate-${options.seed}`),
  });
  let { run } = await engine.createRun(SCOPE, {
    scenario_id: compiled.id,
    inputs,
    idempotency_key: `simulate-${options.seed}`,
  });
  const used = new Set<string>();
  let decisions = 0;
  for (let move = 0; move < MAX_MOVES && !FINAL_STATUSES.has(run.status); move += 1) {
    const awaiting = run.awaiting;
    if (awaiting?.kind === 'approval') {
      const approvers = awaiting.approvers?.length ? awaiting.approvers : ['approver'];
      const rejecting = options.reject.has(awaiting.step);
      if (rejecting) used.add(awaiting.step);
      decisions += 1;
      ({ run } = await engine.signal(SCOPE, run.id, {
        kind: 'approval',
        step: awaiting.step,
        decision: rejecting ? 'reject' : 'approve',
        approver: `${approvers[decisions % approvers.length]!}:simulated_${decisions}`,
        note: 'programrun simulate',
      }));
      continue;
    }
    if (awaiting?.kind === 'handoff' && options.fail.has(awaiting.step)) {
      used.add(awaiting.step);
      ({ run } = await engine.signal(SCOPE, run.id, {
        kind: 'handoff',
        step: awaiting.step,
        outcome: 'failed',
        reference: `simulated-failure-${awaiting.step}`,
        data: { error: 'failed on request (programrun simulate --fail)' },
      }));
      continue;
    }
    const due = await engine.nextTimerDue(SCOPE);
    if (due === null) break;
    const now = (await engine.now(SCOPE)).getTime();
    await engine.advanceTestClock(
      SCOPE.account,
      Math.max(0, Math.ceil((Date.parse(due) - now) / 1000)),
    );
    run = await engine.getRun(SCOPE, run.id);
  }
  const records = await engine.listEvents(SCOPE, run.id, { limit: 100_000 });
  return { run, records, used, finished: FINAL_STATUSES.has(run.status) };
}
