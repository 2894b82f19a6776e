/**
 * One long-running loop registered with {@link BackgroundWorkers}: `stopped()` marks it
 * stopped (call it when its stop begins, so readiness fails while it drains).
 *
 * @example
 * ```ts
 * const worker = engine.background.started('outbox-relay');
 * // … on shutdown
 * worker.stopped();
 * ```
 */
export interface BackgroundWorker {
  stopped(): void;
}

/**
 * The long-running loops of an engine (`scheduler`, `handoff-workers`,
 * `webhook-dispatcher`, or a host's own), by name: `engine.readiness()` is ready only
 * while every name registered so far has one loop running. A name whose loops all
 * stopped stays listed (stopped) until one of that name starts again.
 *
 * @example
 * ```ts
 * const relay = engine.background.started('outbox-relay');
 * engine.background.status(); // { 'outbox-relay': 'running' }
 * relay.stopped();
 * engine.background.status(); // { 'outbox-relay': 'stopped' }
 * ```
 */
export interface BackgroundWorkers {
  /** Registers a loop that has started under `name`; returns its handle. */
  started(name: string): BackgroundWorker;
  /** Each name registered so far: `running` while one loop of that name runs. */
  status(): Readonly<Record<string, 'running' | 'stopped'>>;
}

/** An empty registry: one per engine. */
export function createBackgroundWorkers(): BackgroundWorkers {
  const running = new Map<string, number>();
  return {
    started(name) {
      running.set(name, (running.get(name) ?? 0) + 1);
      let stopped = false;
      return {
        stopped() {
          if (stopped) return;
          stopped = true;
          running.set(name, running.get(name)! - 1);
        },
      };
    },
    status: () =>
      Object.fromEntries(
        [...running].map(([name, count]) => [name, count > 0 ? 'running' : 'stopped'] as const),
      ),
  };
}
