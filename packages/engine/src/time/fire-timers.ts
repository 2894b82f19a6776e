import type { RunEnvironment, RunEvent } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import { partnerIdempotencyKey } from '../handoffs/partner-key.js';
import { simulatedAnswer } from '../handoffs/sandbox.js';
import { applyEvent } from '../kernel/apply-event.js';
import { scenarioOfRun, type StartedRun } from '../kernel/load-run.js';
import type { Scope, TimerQuery, TimerRow } from '../store/store-v1.js';
import { claimDueWork, dueWorkHeld } from './due-work.js';

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
    const applied = await context.transactions.run((transaction) =>
      applyEvent(context, transaction, scope, timer.run_id, event, { firedTimer: timer }),
    );
    return applied.accepted;
  } catch (error) {
    // A timer of a run that no longer exists is dropped rather than retried forever.
    if (!(error instanceof EngineError && error.code === 'run_not_found')) throw error;
    await context.transactions.run(({ tx }) => tx.settleTimers([timer.id], 'cancelled'));
    return false;
  }
}

/**
 * Fires the timers matching `query` that are due at `now()` and, in the test environment,
 * settles the due sandbox jobs (the simulated partners' answers), in rounds until none is
 * due; each round in due order. Each round claims a batch under a lease, so hosts sharing
 * a store split the work and never fire one timer or job together. With `awaitOthers`, it
 * also waits (up to one lease) for due work another caller holds, so the caller sees it
 * done when it returns.
 */
export async function fireDueTimers(
  context: EngineContext,
  query: TimerQuery,
  now: () => Promise<Date> | Date,
  { awaitOthers = false }: { readonly awaitOthers?: boolean } = {},
): Promise<number> {
  let fired = 0;
  let failure: { error: unknown } | undefined;
  // Waiting for another caller's work is real waiting: it is bounded on the wall clock.
  const waitUntil = Date.now() + Math.max(context.timerLeaseMs, context.handoffs.leaseMs);
  for (let round = 0; round < 100_000; round += 1) {
    const at = (await now()).toISOString();
    const claimed = await claimDueWork(context, query, at, (timer) => fireTimer(context, timer));
    if (claimed.length === 0) {
      if (!awaitOthers || Date.now() > waitUntil) break;
      if (!(await dueWorkHeld(context, query, at))) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    for (const item of claimed) {
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
): Promise<number> {
  const scope: Scope = { account, environment: 'test' };
  return fireDueTimers(
    context,
    { environment: 'test', account },
    () => context.transactions.run(({ tx }) => context.clocks.now(tx, scope)),
    { awaitOthers },
  );
}

/**
 * Fires every timer due in an environment (each account's test timers on its own clock);
 * returns how many changed a run.
 */
export async function runDueTimers(
  context: EngineContext,
  environment: RunEnvironment,
): Promise<number> {
  const { clocks } = context;
  if (environment === 'live') return fireDueTimers(context, { environment }, () => clocks.live());
  // Test clocks are the base clock plus a per-account offset that only grows, so whatever
  // is due on the base clock is due for every account; then each account that moved its
  // clock fires what is due on its own time.
  let fired = await fireDueTimers(context, { environment }, () => clocks.testBase());
  const moved = await context.transactions.run(({ tx }) => tx.listTestClocks());
  for (const clock of moved) fired += await fireAccountTestTimers(context, clock.account);
  return fired;
}
