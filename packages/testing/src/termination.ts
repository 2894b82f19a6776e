import type { CompiledScenario } from '@programrun/dsl';
import type { Trace } from './run-trace.js';

/** Records that enter a step which waits: what a loop repeats. */
const ENTERS = new Set([
  'program_run.handoff.requested',
  'program_run.approval.requested',
  'program_run.wait.started',
]);
/** The most drain rounds any scenario gets. */
const MAX_BOUND = 400;

/**
 * Drain rounds a run may need to end once deadlines lapse: each round passes at least
 * one wait, a step is entered at most `max_attempts` times (the largest any step
 * declares), so twice steps × attempts plus ten is ample for every sound scenario
 * (at most 400).
 *
 * @example
 * ```ts
 * terminationBound(compiled); // 142 for qr-merchant-settlement@v1 (22 steps, max_attempts 3)
 * ```
 */
export function terminationBound(compiled: CompiledScenario): number {
  let attempts = 1;
  for (const step of compiled.graph.steps.values()) {
    const declared = (step.definition as { max_attempts?: unknown }).max_attempts;
    if (typeof declared === 'number') attempts = Math.max(attempts, declared);
  }
  return Math.min(MAX_BOUND, 2 * compiled.graph.steps.size * attempts + 10);
}

/**
 * Why a trace did not terminate: the run was not final after the plan and its drain
 * (`trace.drainRounds` rounds of approving and moving time for a `happy` drain, then as
 * many rounds of letting deadlines lapse). The message names what it still
 * waits on and the steps the drain kept entering (the loop), saying which of them
 * declare no `max_attempts`. Empty when the run ended.
 *
 * @example
 * ```ts
 * terminationViolations(compiled, trace);
 * // ['did not end after the plan and 20 rounds of letting deadlines lapse: still waiting on handoff send_payout; …']
 * ```
 */
export function terminationViolations(compiled: CompiledScenario, trace: Trace): string[] {
  if (trace.terminated) return [];
  const entered = new Map<string, number>();
  for (const entry of trace.timeline) {
    if (entry.phase !== 'drain') continue;
    for (const record of entry.records) {
      if (record.step !== null && ENTERS.has(record.type))
        entered.set(record.step, (entered.get(record.step) ?? 0) + 1);
    }
  }
  const loop = [...entered].filter(([, count]) => count > 1);
  const awaiting = trace.run.awaiting;
  const state = awaiting
    ? `still waiting on ${awaiting.kind} ${awaiting.step}`
    : `still ${trace.run.status}`;
  let detail = '';
  if (loop.length > 0) {
    const unbounded = loop
      .map(([step]) => step)
      .filter((step) => {
        const definition = compiled.graph.steps.get(step)?.definition as
          { max_attempts?: unknown } | undefined;
        return definition?.max_attempts === undefined;
      });
    detail =
      `; the drain kept entering ${loop.map(([step, count]) => `${step} ×${count}`).join(', ')}` +
      (unbounded.length === loop.length
        ? ' — a loop that no max_attempts bounds'
        : unbounded.length > 0
          ? ` (no max_attempts on ${unbounded.join(', ')})`
          : '');
  }
  const rounds = trace.drainRounds;
  const drains =
    trace.plan.drain === 'happy'
      ? `${rounds} rounds of approving and moving to the next timer, then ${rounds} of letting deadlines lapse`
      : `${rounds} rounds of letting deadlines lapse`;
  return [`did not end after the plan and ${drains}: ${state}${detail}`];
}
