import type { EngineContext } from '../engine-context.js';
import { DEFAULT_STOP_GRACE_MS, settledWithin, type StopOptions } from '../stop-options.js';
import { liveCallCount } from './live-call-count.js';
import { pumpLiveCalls, runLiveCall, type StartCall } from './live-calls.js';
import { releaseJobLease } from './release-job-lease.js';

/**
 * Background workers calling live connectors: `wake()` looks for due jobs now; `stop()`
 * claims nothing more, lets the calls in flight finish for up to `graceMs` (default 5 s),
 * then aborts the rest through their AbortSignal and gives their jobs' leases back (the
 * call count kept: the next call, on any host, carries the same key), and resolves when
 * this host holds no job lease.
 *
 * @example
 * ```ts
 * const workers = engine.startHandoffWorkers();
 * process.on('SIGTERM', () => void workers.stop({ graceMs: 2_000 }));
 * ```
 */
export interface HandoffWorkers {
  wake(): void;
  stop(options?: StopOptions): Promise<void>;
}

/**
 * Options of `startHandoffWorkers`.
 *
 * @example
 * ```ts
 * const options: HandoffWorkerOptions = { onError: (error) => console.error('handoffs', error) };
 * const workers = engine.startHandoffWorkers(options);
 * ```
 */
export interface HandoffWorkerOptions {
  /** Called when claiming or settling fails; the workers keep going. @default console.error */
  readonly onError?: (error: unknown) => void;
}

/**
 * Starts this engine's handoff workers on real time: they poll every `pollIntervalMs`,
 * are woken after any commit that queued a live job, whenever a call ends (its slot is
 * free while its result is written) and whenever a result is written, and run calls
 * concurrently up to the host's `maxInFlight` and each party's limits. Passes never
 * overlap.
 */
export function startHandoffWorkers(
  context: EngineContext,
  options: HandoffWorkerOptions = {},
): HandoffWorkers {
  const onError =
    options.onError ?? ((error: unknown) => console.error('programrun handoff workers:', error));
  const inFlight = new Set<Promise<void>>();
  // Aborts the calls still in flight when the stop's grace is over.
  const stopping = new AbortController();
  let stopped = false;
  let pumping: Promise<void> | undefined;
  let again = false;
  let turn = 0;

  const calls = liveCallCount(context.endedCalls);
  const start: StartCall = (partner, job) => {
    const live = calls.started(partner.party, job.id);
    // Claimed while stopping: given back before any call is made.
    const work = stopped
      ? releaseJobLease(context.transactions, job)
      : runLiveCall(context, partner, job, {
          stop: stopping.signal,
          // The slot is free once the partner answered: the next call may start while
          // this one's result is written.
          callEnded: () => {
            live.ended();
            wake();
          },
        });
    const call: Promise<void> = work
      .then(() => undefined, onError)
      .finally(() => {
        live.settled();
        inFlight.delete(call);
        wake();
      });
    inFlight.add(call);
  };
  const pass = async (): Promise<void> => {
    do {
      again = false;
      try {
        await pumpLiveCalls(context, calls, start, (turn += 1));
      } catch (error) {
        onError(error);
      }
    } while (again && !stopped);
    pumping = undefined;
  };
  function wake(): void {
    if (stopped) return;
    if (pumping) again = true;
    else pumping = pass();
  }

  const handle = setInterval(wake, context.handoffs.pollIntervalMs);
  handle.unref?.();
  const unsubscribe = context.handoffs.wakeup.subscribe(wake);
  const registration = context.background.started('handoff-workers');
  wake();
  return {
    wake,
    async stop(stopOptions = {}) {
      stopped = true;
      registration.stopped();
      clearInterval(handle);
      unsubscribe();
      await pumping;
      await settledWithin(Promise.all(inFlight), stopOptions.graceMs ?? DEFAULT_STOP_GRACE_MS);
      stopping.abort();
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
