import type { RunEnvironment } from '@programrun/dsl';
import type { Engine } from '../engine.js';

/** Options of {@link startScheduler}. */
export interface SchedulerOptions {
  /** How often to look for due timers. @default 250 */
  readonly intervalMs?: number;
  /** Environments to serve. @default ['test', 'live'] */
  readonly environments?: readonly RunEnvironment[];
  /** Called when firing fails; the scheduler keeps going. @default console.error */
  readonly onError?: (error: unknown) => void;
  /** How often expired Idempotency-Key records are purged (wall clock). @default 600000 */
  readonly purgeEveryMs?: number;
}

/** A running scheduler. */
export interface Scheduler {
  /** Stops polling and waits for the tick in progress. */
  stop(): Promise<void>;
}

/**
 * Fires due timers in the background on real time (what lets simulated partners answer on
 * their own in the reference server) and purges expired Idempotency-Key records. Ticks
 * never overlap.
 *
 * @example
 * ```ts
 * const scheduler = startScheduler(engine, { intervalMs: 200 });
 * process.on('SIGTERM', () => void scheduler.stop());
 * ```
 */
export function startScheduler(engine: Engine, options: SchedulerOptions = {}): Scheduler {
  const environments = options.environments ?? ['test', 'live'];
  const onError =
    options.onError ?? ((error: unknown) => console.error('programrun scheduler:', error));
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const purgeEveryMs = options.purgeEveryMs ?? 600_000;
  let lastPurge = Date.now();
  const tick = async (): Promise<void> => {
    for (const environment of environments) {
      try {
        await engine.runDueTimers(environment);
      } catch (error) {
        onError(error);
      }
    }
    if (Date.now() - lastPurge >= purgeEveryMs) {
      lastPurge = Date.now();
      try {
        await engine.store.transaction((tx) =>
          tx.purgeIdempotencyRecords(new Date().toISOString()),
        );
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
  return {
    async stop() {
      stopped = true;
      clearInterval(handle);
      await running;
    },
  };
}
