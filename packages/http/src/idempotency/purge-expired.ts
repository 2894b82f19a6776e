import type { Engine, Scope } from '@programrun/engine';
import type { IdempotencyPolicy } from './idempotency.js';

/**
 * Purges expired Idempotency-Key records on the back of requests, at most once per
 * `purgeEveryMs` per handler: no timer of its own, so it works on every runtime. The purge
 * runs after the answer, in a unit of work of its own; a failure is reported, never
 * answered.
 */
export function createIdempotencyPurge(
  policy: IdempotencyPolicy,
): (engine: Engine, scope: Scope) => void {
  let last = policy.now().getTime();
  let running = false;
  return (engine, scope) => {
    const now = policy.now();
    if (running || now.getTime() - last < policy.purgeEveryMs) return;
    last = now.getTime();
    running = true;
    engine
      .unitOfWork(scope, ({ tx }) => tx.purgeIdempotencyRecords(now.toISOString()))
      .catch((error: unknown) =>
        console.error('programrun: purging expired Idempotency-Key records failed:', error),
      )
      .finally(() => {
        running = false;
      });
  };
}
