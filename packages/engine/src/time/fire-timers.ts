import type { RunEnvironment, RunEvent } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import { EngineError } from '../errors.js';
import { partnerIdempotencyKey } from '../handoffs/partner-key.js';
import { simulatedAnswer } from '../handoffs/sandbox.js';
import { applyEvent } from '../kernel/apply-event.js';
import { scenarioOfRun, type StartedRun } from '../kernel/load-run.js';
import type { Scope, TimerQuery, TimerRow } from '../store/store-v1.js';

/** Fires one claimed timer in its own transaction; true when it changed its run. */
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
 * Fires the timers matching `query` that are due at `now()`, in rounds until none is.
 * Each round claims a batch under a lease, so hosts sharing a store split the work and
 * never fire one timer together. With `awaitOthers`, it also waits (up to one lease) for
 * due timers another caller holds, so the caller sees them fired when it returns.
 */
export async function fireDueTimers(
  context: EngineContext,
  query: TimerQuery,
  now: () => Promise<Date> | Date,
  { awaitOthers = false }: { readonly awaitOthers?: boolean } = {},
): Promise<number> {
  const { transactions, liveClock, timerLeaseMs } = context;
  let fired = 0;
  let failure: { error: unknown } | undefined;
  // Waiting for another caller's timers is real waiting: it is bounded on the wall clock.
  const waitUntil = Date.now() + timerLeaseMs;
  for (let round = 0; round < 100_000; round += 1) {
    const at = (await now()).toISOString();
    const leaseNow = liveClock.now();
    const claimed = await transactions.run(({ tx }) =>
      tx.claimTimers({
        ...query,
        due_at: at,
        lease_now: leaseNow.toISOString(),
        lease_until: new Date(leaseNow.getTime() + timerLeaseMs).toISOString(),
        limit: 100,
      }),
    );
    if (claimed.length === 0) {
      if (!awaitOthers || Date.now() > waitUntil) break;
      const held = await transactions.run(({ tx }) => tx.dueTimers(query, at, 1));
      if (held.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    for (const timer of claimed) {
      try {
        if (await fireTimer(context, timer)) fired += 1;
      } catch (error) {
        // One timer failing (its lease holds it back for a while) never stops the others.
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
