import type { EngineContext } from '../engine-context.js';
import { pumpLiveCalls, runLiveCall } from './live-calls.js';

/**
 * Background workers calling live connectors: `wake()` looks for due jobs now; `stop()`
 * stops looking and waits for the calls in flight (each bounded by its lease).
 *
 * @example
 * ```ts
 * const workers = engine.startHandoffWorkers();
 * process.on('SIGTERM', () => void workers.stop());
 * ```
 */
export interface HandoffWorkers {
  wake(): void;
  stop(): Promise<void>;
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
 * are woken after any commit that queued a live job and whenever a call ends, and run
 * calls concurrently up to the host's `maxInFlight` and each party's limits. Passes never
 * overlap.
 */
export function startHandoffWorkers(
  context: EngineContext,
  options: HandoffWorkerOptions = {},
): HandoffWorkers {
  const onError =
    options.onError ?? ((error: unknown) => console.error('programrun handoff workers:', error));
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let pumping: Promise<void> | undefined;
  let again = false;
  let turn = 0;

  const start = (...[partner, job]: Parameters<Parameters<typeof pumpLiveCalls>[2]>): void => {
    const call: Promise<void> = runLiveCall(context, partner, job)
      .then(() => undefined, onError)
      .finally(() => {
        inFlight.delete(call);
        wake();
      });
    inFlight.add(call);
  };
  const pass = async (): Promise<void> => {
    do {
      again = false;
      try {
        await pumpLiveCalls(context, () => inFlight.size, start, (turn += 1));
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
  wake();
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(handle);
      unsubscribe();
      await pumping;
      await Promise.all(inFlight);
    },
  };
}
