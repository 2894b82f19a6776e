import { WORKER_BATCH } from '../kernel/worker-batch.js';
import type { RunEnvironment, RunEvent } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import { partnerIdempotencyKey } from '../handoffs/partner-key.js';
import { simulatedAnswer } from '../handoffs/sandbox.js';
import { applyEvent, type AppliedEvent } from '../kernel/apply-event.js';
import { scenarioOfRun, type StartedRun } from '../kernel/load-run.js';
import { TIMER_SPAN } from '../kernel/run-span.js';
import type { Scope, TimerQuery, TimerRow } from '../store/store-v1.js';
import { ATTRIBUTES } from '../telemetry/attributes.js';
import { claimDueWork, dueWorkHeld, type DueItem } from './due-work.js';

/** What a timer is about, on its span. */
const describeTimer = (timer: TimerRow) => ({
  [ATTRIBUTES.step]: timer.step,
  [ATTRIBUTES.timerKind]: timer.kind,
});

/**
 * Counts a timer that fired (changed its run), and how late: the time the run changed (its
 * environment's clock) minus the time the timer fell due.
 */
function countFired(context: EngineContext, timer: TimerRow, applied: AppliedEvent): void {
  if (!context.telemetry.enabled) return;
  const attributes = { [ATTRIBUTES.environment]: timer.environment };
  context.metrics.timersFired.add(1, attributes);
  const lagMs = Date.parse(applied.run.record.updated_at) - Date.parse(timer.due_at);
  if (Number.isFinite(lagMs))
    context.metrics.timerLag.record(Math.max(0, lagMs) / 1000, attributes);
}

/**
 * Fires one claimed timer in its own transaction; true when it changed its run. A
 * `partner_response` timer (written before sandbox jobs replaced them) still applies the
 * simulated answer, so runs waiting in existing stores go on as they did.
 */
async function fireTimer(context: EngineContext, timer: TimerRow): Promise<boolean> {
  const scope: Scope = { account: timer.account, environment: timer.environment };
  const event = (run: StartedRun, at: string): RunEvent =>
    timer.kind === 'partner_response'
      ? simulatedAnswer(
          scenarioOfRun(context.catalogue, run),
          timer.step,
          partnerIdempotencyKey(run.id, timer.step, timer.attempt),
          timer.attempt,
          run.snapshot.context,
          at,
        )
      : { type: 'timer.fired', step: timer.step, attempt: timer.attempt, at };
  try {
    // A timer writes once (its transition, or the timer settled) and nothing after.
    const applied = await context.transactions.run(
      (transaction) =>
        applyEvent(context, transaction, scope, timer.run_id, event, {
          firedTimer: timer,
          span: { name: TIMER_SPAN, describe: () => describeTimer(timer) },
        }),
      { singleWrite: true, batch: WORKER_BATCH },
    );
    if (applied.accepted) countFired(context, timer, applied);
    return applied.accepted;
  } catch (error) {
    // A timer of a run that no longer exists is dropped rather than retried forever.
    if (!(error instanceof EngineError && error.code === 'run_not_found')) throw error;
    await context.transactions.run(({ tx }) => tx.settleTimers([timer.id], 'cancelled'));
    return false;
  }
}

/** Gives back the leases of claimed work left unfired; throws the first failure after trying all. */
async function releaseUnfired(items: readonly DueItem[]): Promise<void> {
  const results = await Promise.allSettled(items.map((item) => item.release()));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Fires the timers matching `query` that are due at `now()` and, in the test environment,
 * settles the due sandbox jobs (the simulated partners' answers), in rounds until none is
 * due; each round in due order. Each round claims a batch under a lease, so hosts sharing
 * a store split the work and never fire one timer or job together. With `awaitOthers`, it
 * also waits (up to one lease) for due work another caller holds, so the caller sees it
 * done when it returns. Once `signal` aborts (the host is stopping) it claims nothing more
 * and gives back the leases of the claimed work it has not fired yet.
 */
export async function fireDueTimers(
  context: EngineContext,
  query: TimerQuery,
  now: () => Promise<Date> | Date,
  {
    awaitOthers = false,
    signal,
  }: { readonly awaitOthers?: boolean; readonly signal?: AbortSignal | undefined } = {},
): Promise<number> {
  let fired = 0;
  let failure: { error: unknown } | undefined;
  // Waiting for another caller's work is real waiting: it is bounded on the wall clock.
  const waitUntil = Date.now() + Math.max(context.timerLeaseMs, context.handoffs.leaseMs);
  for (let round = 0; round < 100_000; round += 1) {
    if (signal?.aborted) break;
    const at = (await now()).toISOString();
    const claimed = await claimDueWork(context, query, at, (timer) => fireTimer(context, timer));
    if (claimed.length === 0) {
      if (!awaitOthers || Date.now() > waitUntil) break;
      if (!(await dueWorkHeld(context, query, at))) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    for (const [index, item] of claimed.entries()) {
      if (signal?.aborted) {
        await releaseUnfired(claimed.slice(index));
        break;
      }
      try {
        if (await item.fire()) fired += 1;
      } catch (error) {
        // One failing (its lease holds it back for a while) never stops the others.
        failure ??= { error };
      }
    }
    if (failure) break;
  }
  if (failure) throw failure.error;
  return fired;
}

/**
 * Fires one account's due test timers on its own clock.
 */
export function fireAccountTestTimers(
  context: EngineContext,
  account: string,
  awaitOthers = false,
  signal?: AbortSignal,
): Promise<number> {
  const scope: Scope = { account, environment: 'test' };
  return fireDueTimers(
    context,
    { environment: 'test', account },
    () => context.transactions.run(({ tx }) => context.clocks.now(tx, scope)),
    { awaitOthers, signal },
  );
}

/**
 * Fires every timer due in an environment (each account's test timers on its own clock);
 * returns how many changed a run. `signal` stops it early (see {@link fireDueTimers}).
 */
export async function runDueTimers(
  context: EngineContext,
  environment: RunEnvironment,
  signal?: AbortSignal,
): Promise<number> {
  const { clocks } = context;
  if (environment === 'live')
    return fireDueTimers(context, { environment }, () => clocks.live(), { signal });
  // Test clocks are the base clock plus a per-account offset that only grows, so whatever
  // is due on the base clock is due for every account; then each account that moved its
  // clock fires what is due on its own time.
  let fired = await fireDueTimers(context, { environment }, () => clocks.testBase(), { signal });
  if (signal?.aborted) return fired;
  const moved = await context.transactions.run(({ tx }) => tx.listTestClocks());
  for (const clock of moved) {
    if (signal?.aborted) break;
    fired += await fireAccountTestTimers(context, clock.account, false, signal);
  }
  return fired;
}
