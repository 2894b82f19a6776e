/**
 * How a background loop stops (the scheduler, the handoff workers, the webhook dispatcher):
 * it claims nothing more at once, lets the work in flight finish for up to `graceMs`, then
 * aborts what is still running (through its AbortSignal) and gives back every lease it
 * holds, so other hosts take that work at once rather than when the leases end.
 *
 * @example
 * ```ts
 * const scheduler = startScheduler(engine);
 * process.on('SIGTERM', () => void scheduler.stop({ graceMs: 2_000 }));
 * ```
 */
export interface StopOptions {
  /**
   * How long calls and deliveries in flight may still finish before they are aborted and
   * their leases given back. @default 5000
   */
  readonly graceMs?: number;
}

/** The grace of {@link StopOptions} when none is given. */
export const DEFAULT_STOP_GRACE_MS = 5_000;

/** Resolves when `work` settles or `ms` have passed, whichever is first. */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, ms));
    }),
  ]);
  clearTimeout(timer);
}
