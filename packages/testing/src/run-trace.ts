import type { CompiledScenario } from '@programrun/dsl';
import {
  createEngine,
  createMemoryStore,
  createVirtualClock,
  EngineError,
  FINAL_STATUSES,
  seededIds,
  type LifecycleRecord,
  type RunRecord,
  type Scope,
  type Signal,
} from '@programrun/engine';
import type { PlanAction, SignalPlan } from './signal-plan.js';

/** What happened in one trace. */
export interface Trace {
  readonly run: RunRecord;
  readonly records: readonly LifecycleRecord[];
  /** Each action with what it did: applied, duplicate, or the refusal code. */
  readonly log: readonly string[];
  /** True when the run reached a final status once deadlines were allowed to expire. */
  readonly terminated: boolean;
}

const SCOPE: Scope = { account: 'acct_property', environment: 'test' };
const APPROVERS = Array.from({ length: 64 }, (_, index) => `approver_${index}`);
const REFUSALS = new Set([
  'run_finished',
  'step_not_awaiting',
  'approver_already_decided',
  'maker_checker_violation',
  'cancel_not_allowed',
  'signal_refused',
]);
/** Drain rounds before a run that never ends counts as not terminating. */
const DRAIN_ROUNDS = 400;

/**
 * Runs a scenario in the test environment on a virtual clock with seeded ids: creates
 * the run, applies the plan, then lets every deadline expire until the run ends.
 * Expected refusals are logged; anything else throws.
 *
 * @example
 * ```ts
 * const trace = await runTrace(compiled, compiled.definition.example_inputs, plan, 'seed-1');
 * trace.run.status; // 'completed'
 * ```
 */
export async function runTrace(
  compiled: CompiledScenario,
  inputs: Readonly<Record<string, unknown>>,
  plan: SignalPlan,
  seed: string,
): Promise<Trace> {
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios: [compiled],
    testClock: createVirtualClock('2026-06-01T08:00:00.000Z'),
    ids: seededIds(seed),
    sandbox: plan.partnersAnswer ? {} : { responseDelayMs: 10 * 365 * 24 * 3600 * 1000 },
  });
  const log: string[] = [];
  let { run } = await engine.createRun(SCOPE, {
    scenario_id: compiled.id,
    inputs,
    idempotency_key: seed,
  });
  let lastSignal: Signal | undefined;
  const steps = [...compiled.graph.steps.keys()];

  const send = async (signal: Signal, label: string): Promise<void> => {
    try {
      const result = await engine.signal(SCOPE, run.id, signal);
      run = result.run;
      lastSignal = signal;
      log.push(`${label}: ${result.applied ? 'applied' : 'duplicate'}`);
    } catch (error) {
      if (error instanceof EngineError && REFUSALS.has(error.code)) {
        log.push(`${label}: refused ${error.code}`);
        return;
      }
      throw error;
    }
  };

  const expire = async (): Promise<void> => {
    const deadline = run.awaiting?.deadline;
    const now = (await engine.now(SCOPE)).getTime();
    const seconds = deadline
      ? Math.max(1, Math.ceil((new Date(deadline).getTime() - now) / 1000) + 1)
      : 24 * 3600;
    await engine.advanceTestClock(SCOPE.account, seconds);
    run = await engine.getRun(SCOPE, run.id);
  };

  const apply = async (action: PlanAction): Promise<void> => {
    const awaiting = run.awaiting;
    switch (action.kind) {
      case 'decide':
        return send(
          {
            kind: 'approval',
            step: awaiting?.kind === 'approval' ? awaiting.step : (steps[0] ?? 'none'),
            decision: action.decision,
            approver: APPROVERS[action.approver % APPROVERS.length]!,
          },
          `${action.decision} ${awaiting?.step ?? '-'}`,
        );
      case 'answer': {
        const step = awaiting?.kind === 'handoff' ? awaiting.step : (steps[0] ?? 'none');
        return send(
          {
            kind: 'handoff',
            step,
            outcome: action.outcome,
            reference: `ref-${step}-${log.length}`,
            data: {},
          },
          `${action.outcome} ${step}`,
        );
      }
      case 'advance':
        await engine.advanceTestClock(SCOPE.account, action.seconds);
        run = await engine.getRun(SCOPE, run.id);
        log.push(`advance ${action.seconds}s`);
        return;
      case 'next': {
        const due = await engine.nextTimerDue(SCOPE);
        const now = (await engine.now(SCOPE)).getTime();
        const seconds =
          due === null ? 60 : Math.max(0, Math.ceil((new Date(due).getTime() - now) / 1000));
        await engine.advanceTestClock(SCOPE.account, seconds);
        run = await engine.getRun(SCOPE, run.id);
        log.push(`next (+${seconds}s)`);
        return;
      }
      case 'expire':
        await expire();
        log.push('expire');
        return;
      case 'cancel':
        return send({ kind: 'cancel', reason: 'property test' }, 'cancel');
      case 'duplicate':
        return lastSignal ? send(lastSignal, 'duplicate') : undefined;
      case 'stray':
        return send(
          {
            kind: 'handoff',
            step: steps[action.step % steps.length]!,
            outcome: 'confirmed',
            reference: 'stray',
            data: {},
          },
          'stray',
        );
    }
  };

  for (const action of plan.actions) await apply(action);
  if (plan.drain === 'happy') {
    for (let round = 0; round < DRAIN_ROUNDS && !FINAL_STATUSES.has(run.status); round += 1) {
      for (const offset of [0, 1, 2, 3]) {
        await apply({ kind: 'decide', decision: 'approve', approver: 8 + round * 4 + offset });
      }
      await apply({ kind: 'next' });
    }
  }
  for (let round = 0; round < DRAIN_ROUNDS && !FINAL_STATUSES.has(run.status); round += 1)
    await expire();
  const records = await engine.listEvents(SCOPE, run.id, { limit: 100_000 });
  return { run, records, log, terminated: FINAL_STATUSES.has(run.status) };
}

/**
 * The plan of the happy path: approve whatever waits for approval (each time by a new
 * approver, so quorum and four eyes hold) and otherwise move to the next timer, so
 * simulated partners answer and waits elapse.
 *
 * @example
 * ```ts
 * const trace = await runTrace(compiled, compiled.definition.example_inputs, happyPathPlan(), 'happy');
 * ```
 */
export function happyPathPlan(length = 60): SignalPlan {
  return {
    partnersAnswer: true,
    // Several approvals before time moves: quorum may need more than one approver, and
    // the next timer of a waiting approval is its expiry.
    actions: Array.from({ length }, (_, index): PlanAction[] => [
      ...[0, 1, 2, 3].map((offset): PlanAction => ({
        kind: 'decide',
        decision: 'approve',
        approver: index * 4 + offset,
      })),
      { kind: 'next' },
    ]).flat(),
  };
}
