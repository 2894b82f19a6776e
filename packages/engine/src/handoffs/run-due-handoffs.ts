import type { RunEnvironment } from '@programrun/dsl';
import type { EngineContext } from '../engine-context.js';
import type { Scope, TimerQuery } from '../store/store-v1.js';
import { liveCallCount } from './live-call-count.js';
import { pumpLiveCalls, runLiveCall, type StartCall } from './live-calls.js';
import { claimSandboxJobs, settleSandboxJob } from './sandbox-jobs.js';

/** Settles the due sandbox jobs matching `query` on the clock `now` reads, in rounds. */
async function settleDueSandboxJobs(
  context: EngineContext,
  query: TimerQuery,
  now: () => Promise<Date> | Date,
): Promise<number> {
  let settled = 0;
  for (let round = 0; round < 100_000; round += 1) {
    const at = (await now()).toISOString();
    const jobs = await context.transactions.run(({ tx }) =>
      claimSandboxJobs(context, tx, query, at, context.liveClock.now(), 100),
    );
    if (jobs.length === 0) break;
    for (const job of jobs) if (await settleSandboxJob(context, job, at)) settled += 1;
  }
  return settled;
}

/** The sandbox jobs of the test environment, each account on its own clock. */
async function runDueSandboxJobs(context: EngineContext): Promise<number> {
  const { clocks, transactions } = context;
  // Whatever is due on the base clock is due for every account (offsets only grow).
  let settled = await settleDueSandboxJobs(context, { environment: 'test' }, () =>
    clocks.testBase(),
  );
  for (const clock of await transactions.run(({ tx }) => tx.listTestClocks())) {
    const scope: Scope = { account: clock.account, environment: 'test' };
    settled += await settleDueSandboxJobs(
      context,
      { environment: 'test', account: clock.account },
      () => transactions.run(({ tx }) => clocks.now(tx, scope)),
    );
  }
  return settled;
}

/** Calls the due live jobs until none is due (or every due one waits on flow control). */
async function runDueLiveJobs(context: EngineContext): Promise<number> {
  const calls = liveCallCount(context.endedCalls);
  const inFlight = new Set<Promise<void>>();
  let settled = 0;
  let failure: { error: unknown } | undefined;
  // Woken when a call ends (its slot is free while its result is written) or settles.
  let woken: () => void = () => undefined;
  const wake = () => woken();
  const start: StartCall = (partner, job) => {
    const live = calls.started(partner.party, job.id);
    const call: Promise<void> = runLiveCall(context, partner, job, {
      callEnded: () => {
        live.ended();
        wake();
      },
    })
      .then((written) => void (written && (settled += 1)))
      .catch((error: unknown) => void (failure ??= { error }))
      .finally(() => {
        live.settled();
        inFlight.delete(call);
        wake();
      });
    inFlight.add(call);
  };
  for (let round = 0; round < 100_000 && !failure; round += 1) {
    const changed = new Promise<void>((resolve) => (woken = resolve));
    await pumpLiveCalls(context, calls, start, round);
    if (inFlight.size === 0) break;
    // A call that ended leaves its slot before its result is written: claim again then.
    await changed;
  }
  while (inFlight.size > 0) await Promise.all(inFlight);
  if (failure) throw failure.error;
  return settled;
}

/**
 * Claims and calls the due handoff jobs of an environment until none is due, awaiting the
 * calls: in the test environment the sandbox answers (each account on its own clock); in
 * live the configured connectors are called within their flow control. Returns how many
 * calls were settled.
 */
export function runDueHandoffs(
  context: EngineContext,
  environment: RunEnvironment,
): Promise<number> {
  return environment === 'test' ? runDueSandboxJobs(context) : runDueLiveJobs(context);
}
