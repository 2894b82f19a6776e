/**
 * How the engine's own workers write (fired timers, partner answers): batched with other
 * runs' writes that arrive while a batch is being written, never held back to wait for
 * more.
 */
export const WORKER_BATCH = { maxWaitMs: 0 } as const;
