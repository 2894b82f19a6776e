import type { RunEnvironment } from '@programrun/dsl';
import type { HandoffWorkerOptions, HandoffWorkers } from '../handoffs/handoff-workers.js';
import type { BackgroundWorkers } from '../health/background-workers.js';
import type { StopOptions } from '../stop-options.js';

/**
 * What a scheduler drives: firing the due timers (and sandbox answers) of an environment,
 * and the engine's handoff workers when it has them.
 */
export interface TimerSource {
  /**
   * Fires every timer due in an environment; returns how many changed a run. Once
   * `options.signal` aborts it stops early and gives back what it claimed but did not fire.
   */
  runDueTimers(
    environment: RunEnvironment,
    options?: { readonly signal?: AbortSignal },
  ): Promise<number>;
  /** Starts the workers calling live connectors (an `Engine` has it). */
  startHandoffWorkers?(options?: HandoffWorkerOptions): HandoffWorkers;
  /** Where the scheduler registers as `scheduler` for readiness (an `Engine` has it). */
  readonly background?: BackgroundWorkers;
}

/** Options of {@link startScheduler}. */
export interface SchedulerOptions {
  /** How often to look for due timers. @default 250 */
  readonly intervalMs?: number;
  /** Environments to serve. @default ['test', 'live'] */
  readonly environments?: readonly RunEnvironment[];
  /** Called when firing fails; the scheduler keeps going. @default console.error */
  readonly onError?: (error: unknown) => void;
  /** Start (and stop) the engine's handoff workers with the scheduler. @default true */
  readonly handoffs?: boolean;
}

/** A running scheduler. */
export interface Scheduler {
  /**
   * Stops at once: claims no more timers, lets the timer being fired finish and gives back
   * the leases of the ones it claimed but did not fire, and stops the handoff workers (calls
   * in flight get `graceMs`, then are aborted and their jobs' leases given back).
   */
  stop(options?: StopOptions): Promise<void>;
}

/**
 * Fires due timers in the background on real time (what lets simulated partners answer on
 * their own in the reference server) and runs the engine's handoff workers, which call
 * live connectors. Ticks never overlap. Due times are read from the engine's clocks, so a
 * virtual clock decides what is due; only the polling is wall-clock.
 *
 * @example
 * ```ts
 * const scheduler = startScheduler(engine, { intervalMs: 200 });
 * process.on('SIGTERM', () => void scheduler.stop());
 * ```
 */
export function startScheduler(engine: TimerSource, options: SchedulerOptions = {}): Scheduler {
  const environments = options.environments ?? ['test', 'live'];
  const onError =
    options.onError ?? ((error: unknown) => console.error('programrun scheduler:', error));
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const stopping = new AbortController();
  const tick = async (): Promise<void> => {
    for (const environment of environments) {
      if (stopping.signal.aborted) return;
      try {
        await engine.runDueTimers(environment, { signal: stopping.signal });
      } catch (error) {
        onError(error);
      }
    }
  };
  const handle = setInterval(() => {
    if (stopped) return;
    running = running.then(tick);
  }, options.intervalMs ?? 250);
  handle.unref?.();
  const registration = engine.background?.started('scheduler');
  const workers =
    options.handoffs === false ? undefined : engine.startHandoffWorkers?.({ onError });
  return {
    async stop(stopOptions) {
      stopped = true;
      registration?.stopped();
      clearInterval(handle);
      stopping.abort();
      await Promise.all([running, workers?.stop(stopOptions)]);
    },
  };
}
