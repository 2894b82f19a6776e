import type { CompiledScenario, UpgradeReport } from '@programrun/dsl';
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
import type { DsseEnvelope, EvidenceKeySet, JsonObject } from '@programrun/evidence';
import {
  lateAnswer,
  outOfOrderAnswer,
  requestedHandoff,
  type RequestedHandoff,
} from './partner-answers.js';
import { changeAnswerData, type AnswerDataChange } from './answer-data.js';
import type { PlanAction, SignalPlan } from './signal-plan.js';
import { timelineRecord, type TimelineEntry } from './timeline.js';

/** What happened in one trace. */
export interface Trace {
  /** The scenario id, e.g. `wallet-delivery@v1`. */
  readonly scenario: string;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly plan: SignalPlan;
  /** The seed of the run's ids (and its Idempotency-Key). */
  readonly seed: string;
  readonly run: RunRecord;
  readonly records: readonly LifecycleRecord[];
  /** Each action with what it did: applied, duplicate, or the refusal code. */
  readonly log: readonly string[];
  /** Every action, plan and drain, with its time, what the run waited on and its effect. */
  readonly timeline: readonly TimelineEntry[];
  /** True when the run reached a final status once deadlines were allowed to expire. */
  readonly terminated: boolean;
  /** Rounds each drain was allowed before the run counted as not terminating. */
  readonly drainRounds: number;
  /** The exported evidence envelope, when `evidenceKeys` were given. */
  readonly evidence: DsseEnvelope | null;
  /**
   * The step the run waited at after each number of plan actions (index 0: once created,
   * index k: after the k-th action), null when it waited for nothing.
   */
  readonly awaitedAfterActions: readonly (string | null)[];
}

/** A move of the run to another version of its scenario partway through the plan. */
export interface TraceUpgrade {
  /** How many of the plan's actions run first (0: right after the create). */
  readonly afterActions: number;
  /** The version moved to; the rest of the plan and the drain run on it. */
  readonly to: CompiledScenario;
  /** The proof (`checkUpgrade` of the two versions) the move goes by. */
  readonly report: UpgradeReport;
}

/** Options of {@link runTrace}. */
export interface RunTraceOptions {
  /** Rounds each drain may take before the run counts as not terminating. @default 400 */
  readonly drainRounds?: number;
  /**
   * Evidence signing keys: the run is created with a session, a lead is linked to it
   * once the run is drained, and the signed evidence bundle is exported into the trace.
   */
  readonly evidenceKeys?: EvidenceKeySet;
  /** Keep the machine context of each timeline entry (money legs read it). @default true */
  readonly contexts?: boolean;
  /**
   * Move the run to a new version after some of the plan's actions (`engine.upgradeRuns`,
   * logged `upgrade to <id>: <outcome>`); the trace is then of the new version.
   */
  readonly upgrade?: TraceUpgrade;
}

const SCOPE: Scope = { account: 'acct_property', environment: 'test' };
const APPROVERS = Array.from({ length: 64 }, (_, index) => `approver_${index}`);
const REFUSALS = new Set([
  'run_finished',
  'step_not_awaiting',
  'approver_already_decided',
  'maker_checker_violation',
  'cancel_not_allowed',
  'handoff_key_mismatch',
  'signal_refused',
]);
/** How an answer's data reads in a log: `simulated data`, `captured_amount under`; empty for none. */
function dataNote(
  data: 'simulated' | AnswerDataChange | undefined,
  before: string,
  after: string,
): string {
  if (data === undefined) return '';
  const change =
    data === 'simulated'
      ? 'simulated data'
      : data.to === 'value'
        ? `${data.field} = ${data.value}`
        : `${data.field} ${data.to}${data.of === undefined ? '' : ` inputs.${data.of}`}`;
  return `${before}${change}${after}`;
}

/** Drain rounds before a run that never ends counts as not terminating. */
const DRAIN_ROUNDS = 400;
const LEAD = {
  name: 'Property test',
  email: 'qa@example.com',
  company: 'programrun',
  use_case: 'checkScenario evidence',
};

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
  options: RunTraceOptions = {},
): Promise<Trace> {
  const drainRounds = options.drainRounds ?? DRAIN_ROUNDS;
  const keys = options.evidenceKeys;
  const keepContexts = options.contexts ?? true;
  const session = keys ? `session-${seed}` : undefined;
  const engine = createEngine({
    store: createMemoryStore(),
    scenarios: options.upgrade ? [compiled, options.upgrade.to] : [compiled],
    testClock: createVirtualClock('2026-06-01T08:00:00.000Z'),
    ids: seededIds(seed),
    sandbox: plan.partnersAnswer ? {} : { responseDelayMs: 10 * 365 * 24 * 3600 * 1000 },
    ...(keys ? { evidence: { keys } } : {}),
  });
  const log: string[] = [];
  const timeline: TimelineEntry[] = [];
  const requested: RequestedHandoff[] = [];
  let { run } = await engine.createRun(SCOPE, {
    scenario_id: compiled.id,
    inputs,
    idempotency_key: seed,
    ...(session ? { session_id: session } : {}),
  });
  let now = (await engine.now(SCOPE)).toISOString();
  let lastSequence = 0;
  let phase: TimelineEntry['phase'] = 'create';
  let lastSignal: Signal | undefined;
  // The version the run is on: `compiled`, or the one it was upgraded to.
  let current = compiled;
  let steps = [...compiled.graph.steps.keys()];

  type Happening = Pick<TimelineEntry, 'action' | 'stale' | 'outcome' | 'code'>;
  /** Appends the timeline entry of what just happened, reading what it changed. */
  const observe = async (
    happening: Happening,
    at: string,
    waited: RunRecord['awaiting'],
  ): Promise<void> => {
    const { stored, records } = await engine.unitOfWork(SCOPE, async ({ tx }) => ({
      stored: await tx.getRun(SCOPE, run.id),
      records: await tx.listRecords(SCOPE, run.id, { afterSequence: lastSequence, limit: 100_000 }),
    }));
    // The next timer or simulated partner answer (a sandbox handoff job), whichever is first.
    const next = await engine.nextTimerDue(SCOPE);
    lastSequence = records.at(-1)?.sequence ?? lastSequence;
    for (const record of records) {
      const request = requestedHandoff(record);
      if (request) requested.push(request);
    }
    timeline.push({
      phase,
      ...happening,
      at,
      waited,
      records: records.map(timelineRecord),
      status: run.status,
      stage: run.stage,
      awaiting: run.awaiting,
      nextTimer: next,
      context: keepContexts ? (stored?.snapshot?.context ?? null) : null,
    });
  };

  const send = async (
    signal: Signal,
    label: string,
    action: string,
    stale = false,
  ): Promise<void> => {
    const at = now;
    const waited = run.awaiting;
    try {
      const result = await engine.signal(SCOPE, run.id, signal);
      run = result.run;
      lastSignal = signal;
      const outcome = result.applied ? 'applied' : 'duplicate';
      log.push(`${label}: ${outcome}`);
      await observe({ action, stale, outcome, code: null }, at, waited);
    } catch (error) {
      if (error instanceof EngineError && REFUSALS.has(error.code)) {
        log.push(`${label}: refused ${error.code}`);
        await observe({ action, stale, outcome: 'refused', code: error.code }, at, waited);
        return;
      }
      throw error;
    }
  };

  /** What the step's simulated partner would answer now (`{}` when it cannot be computed). */
  const simulatedData = async (step: string): Promise<JsonObject> => {
    const definition = current.graph.steps.get(step)?.definition;
    const fields = definition?.kind === 'handoff' ? definition.simulation?.data : undefined;
    if (fields === undefined) return {};
    const stored = await engine.unitOfWork(SCOPE, ({ tx }) => tx.getRun(SCOPE, run.id));
    const context = stored?.snapshot?.context;
    if (context === undefined) return {};
    const result = current.evaluator.fields(fields, context);
    return result.ok ? (result.value as JsonObject) : {};
  };

  /** The data an `answer` action carries: none, the simulated partner's, or that changed. */
  const answerData = async (
    step: string,
    data: 'simulated' | AnswerDataChange | undefined,
  ): Promise<JsonObject> => {
    if (data === undefined) return {};
    const simulated = await simulatedData(step);
    return data === 'simulated'
      ? simulated
      : changeAnswerData(simulated, data, inputs as JsonObject);
  };

  /** Moves the clock; `label` goes to the log (drain expiries are not logged). */
  const move = async (seconds: number, action: string, label?: string): Promise<void> => {
    const at = now;
    const waited = run.awaiting;
    now = (await engine.advanceTestClock(SCOPE.account, seconds)).now;
    run = await engine.getRun(SCOPE, run.id);
    if (label !== undefined) log.push(label);
    await observe({ action, stale: false, outcome: 'clock', code: null }, at, waited);
  };

  /** Seconds to just past the pending deadline (a day when there is none). */
  const toDeadline = (): number => {
    const deadline = run.awaiting?.deadline;
    return deadline
      ? Math.max(1, Math.ceil((new Date(deadline).getTime() - new Date(now).getTime()) / 1000) + 1)
      : 24 * 3600;
  };

  let staleCount = 0;
  const stale = async (signal: Signal | undefined, kind: string, label: string) => {
    staleCount += 1;
    if (!signal || signal.kind !== 'handoff') {
      log.push(`${kind}: none`);
      await observe({ action: label, stale: true, outcome: 'none', code: null }, now, run.awaiting);
      return;
    }
    const key = signal.idempotency_key ? ` (key of ${keyOwner(signal.idempotency_key)})` : '';
    await send(
      signal,
      `${kind} ${signal.outcome} ${signal.step}`,
      `${label} ${signal.step}: ${signal.outcome}${key}`,
      true,
    );
  };
  const keyOwner = (key: string): string => {
    const owner = requested.find((request) => request.key === key);
    return owner ? `${owner.step} attempt ${owner.attempt}` : 'no attempt';
  };

  const apply = async (action: PlanAction): Promise<void> => {
    const awaiting = run.awaiting;
    switch (action.kind) {
      case 'decide': {
        const step = awaiting?.kind === 'approval' ? awaiting.step : (steps[0] ?? 'none');
        const approver = APPROVERS[action.approver % APPROVERS.length]!;
        return send(
          { kind: 'approval', step, decision: action.decision, approver },
          `${action.decision} ${awaiting?.step ?? '-'}`,
          `${action.decision} ${step} as ${approver}`,
        );
      }
      case 'answer': {
        const step = awaiting?.kind === 'handoff' ? awaiting.step : (steps[0] ?? 'none');
        return send(
          {
            kind: 'handoff',
            step,
            outcome: action.outcome,
            // Numbered by the plain (not stale) actions before it, so stale answers
            // inserted anywhere leave every other signal as it was.
            reference: `ref-${step}-${log.length - staleCount}`,
            data: await answerData(step, action.data),
          },
          `${action.outcome} ${step}${dataNote(action.data, ' (', ')')}`,
          `partner answer ${step}: ${action.outcome}${dataNote(action.data, ' with ', '')}`,
        );
      }
      case 'advance':
        return move(action.seconds, `advance ${action.seconds}s`, `advance ${action.seconds}s`);
      case 'next': {
        const due = timeline.at(-1)?.nextTimer ?? null;
        const seconds =
          due === null
            ? 60
            : Math.max(0, Math.ceil((new Date(due).getTime() - new Date(now).getTime()) / 1000));
        return move(seconds, `next timer (+${seconds}s)`, `next (+${seconds}s)`);
      }
      case 'expire': {
        const seconds = toDeadline();
        return move(seconds, `expire deadline (+${seconds}s)`, 'expire');
      }
      case 'cancel':
        return send({ kind: 'cancel', reason: 'property test' }, 'cancel', 'cancel');
      case 'duplicate':
        return lastSignal
          ? send(lastSignal, 'duplicate', `repeat ${describeSignal(lastSignal)}`)
          : undefined;
      case 'stray': {
        const step = steps[action.step % steps.length]!;
        return send(
          { kind: 'handoff', step, outcome: 'confirmed', reference: 'stray', data: {} },
          'stray',
          `stray answer ${step}: confirmed`,
        );
      }
      case 'late':
        return stale(lateAnswer(requested, awaiting, action.outcome), 'late', 'late answer');
      case 'out_of_order':
        return stale(
          outOfOrderAnswer(current, requested, awaiting, action.variant, action.outcome),
          'out_of_order',
          action.variant === 'other_step'
            ? 'out-of-order answer for another step'
            : 'out-of-order answer with an old key for',
        );
    }
  };

  await observe({ action: 'create run', stale: false, outcome: 'applied', code: null }, now, null);
  /** Moves the run to the upgrade's version, by its proof. */
  const upgrade = async ({ to, report }: TraceUpgrade): Promise<void> => {
    const at = now;
    const waited = run.awaiting;
    const result = await engine.upgradeRuns(SCOPE, { report, actor: 'ops:trace-upgrade' });
    const moved = result.runs.find((entry) => entry.run_id === run.id);
    log.push(`upgrade to ${to.id}: ${moved?.outcome ?? 'not listed'}`);
    if (moved?.outcome === 'upgraded') {
      current = to;
      steps = [...to.graph.steps.keys()];
    }
    run = await engine.getRun(SCOPE, run.id);
    const outcome = moved?.outcome === 'upgraded' ? 'applied' : 'none';
    await observe({ action: `upgrade to ${to.id}`, stale: false, outcome, code: null }, at, waited);
  };

  phase = 'plan';
  const awaitedAfterActions: (string | null)[] = [run.awaiting?.step ?? null];
  for (const [index, action] of plan.actions.entries()) {
    if (options.upgrade?.afterActions === index) await upgrade(options.upgrade);
    await apply(action);
    awaitedAfterActions.push(run.awaiting?.step ?? null);
  }
  if (options.upgrade && options.upgrade.afterActions >= plan.actions.length)
    await upgrade(options.upgrade);
  phase = 'drain';
  if (plan.drain === 'happy' || plan.drain === 'answer') {
    for (let round = 0; round < drainRounds && !FINAL_STATUSES.has(run.status); round += 1) {
      // Up to four approvers a round (quorum, four eyes), only while an approval waits.
      for (const offset of [0, 1, 2, 3]) {
        if (run.awaiting?.kind !== 'approval') break;
        await apply({ kind: 'decide', decision: 'approve', approver: 8 + round * 4 + offset });
      }
      if (plan.drain === 'answer' && run.awaiting?.kind === 'handoff')
        await apply({ kind: 'answer', outcome: 'confirmed', data: 'simulated' });
      else await apply({ kind: 'next' });
    }
  }
  for (let round = 0; round < drainRounds && !FINAL_STATUSES.has(run.status); round += 1) {
    const seconds = toDeadline();
    await move(seconds, `expire deadline (+${seconds}s)`);
  }
  let evidence: DsseEnvelope | null = null;
  if (session) {
    await engine.createAccessRequest(SCOPE, { session_id: session, ...LEAD });
    evidence = await engine.exportEvidence(SCOPE, run.id);
    run = await engine.getRun(SCOPE, run.id);
  }
  const records = await engine.listEvents(SCOPE, run.id, { limit: 100_000 });
  return {
    scenario: current.id,
    inputs,
    plan,
    seed,
    run,
    records,
    log,
    timeline,
    terminated: FINAL_STATUSES.has(run.status),
    drainRounds,
    evidence,
    awaitedAfterActions,
  };
}

/** A signal in a few words, e.g. `approve payer_approval as approver_3`. */
function describeSignal(signal: Signal): string {
  switch (signal.kind) {
    case 'approval':
      return `${signal.decision} ${signal.step} as ${signal.approver}`;
    case 'handoff':
      return `answer ${signal.step}: ${signal.outcome}`;
    case 'cancel':
      return 'cancel';
  }
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
