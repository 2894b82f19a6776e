import { EngineError } from '../errors.js';
import { deterministicId } from '../ids/deterministic-id.js';
import type { StartedRun } from '../kernel/load-run.js';
import type { Signal } from '../signals/signal.js';

/**
 * The key the partner uses to deduplicate a handoff: `pik_` and 32 hex digits of
 * sha-256 over `<run id>:<step>:<attempt>`. Retries of the same attempt reuse it.
 *
 * @example
 * ```ts
 * partnerIdempotencyKey('prun_1', 'post_ledger', 1); // 'pik_…'
 * ```
 */
export function partnerIdempotencyKey(runId: string, step: string, attempt: number): string {
  return deterministicId('pik', `${runId}:${step}:${attempt}`);
}

/**
 * The attempt a partner answer names through its idempotency key (undefined when a test
 * answer carries none); refuses a key of an earlier attempt or one this run never gave,
 * and a live answer without a key (`handoff_key_required`).
 */
export function answeredAttempt(run: StartedRun, signal: Signal): number | undefined {
  if (signal.kind !== 'handoff') return undefined;
  if (signal.idempotency_key === undefined) {
    if (run.snapshot.context.environment !== 'live') return undefined;
    throw new EngineError(
      'handoff_key_required',
      `A live partner answer must carry the pik_ idempotency key of the handoff request it answers ("${signal.step}"); it was not applied.`,
    );
  }
  const current = run.snapshot.context.attempts[signal.step] ?? 0;
  for (let attempt = current; attempt >= 1; attempt -= 1) {
    if (partnerIdempotencyKey(run.id, signal.step, attempt) !== signal.idempotency_key) continue;
    if (attempt === current) return attempt;
    throw new EngineError(
      'handoff_key_mismatch',
      `This answer is for attempt ${attempt} of "${signal.step}", which has since been retried (attempt ${current}); it was not applied.`,
    );
  }
  throw new EngineError(
    'handoff_key_mismatch',
    `The idempotency key is not one this run gave for "${signal.step}"; send the pik_ key from the handoff request.`,
  );
}
