import type { HandoffAnswer } from '../connectors/handoff-contract.js';
import type { HandoffJobRow } from '../store/store-v1.js';
import type { CallError, CallResult } from './call-connector.js';
import type { HandoffSettings } from './handoff-settings.js';

/** How a call is recorded in its `handoff.attempted` record. */
export type AttemptOutcome = 'answered' | 'accepted' | 'retrying' | 'exhausted' | 'failed';

/** What settling a call writes: the job's next row, and the answer to apply, if any. */
export interface SettlePlan {
  readonly next: HandoffJobRow;
  readonly outcome: AttemptOutcome;
  /** Applied as the handoff's outcome (a permanent error is a `failed` answer). */
  readonly answer: HandoffAnswer | null;
  readonly error: CallError | null;
}

/**
 * Milliseconds to wait before call `calls + 1`: exponential backoff with full jitter,
 * uniform in [0, min(maxMs, initialMs × factor^(calls − 1))).
 */
export function backoffMs(calls: number, retry: HandoffSettings['retry'], random: () => number) {
  const ceiling = Math.min(retry.maxMs, retry.initialMs * retry.factor ** Math.max(0, calls - 1));
  return Math.floor(random() * ceiling);
}

const released = (job: HandoffJobRow, at: string) =>
  ({ ...job, lease_owner: null, lease_until: null, updated_at: at }) as const;

/** The error as the job row keeps it: without `retry_after_ms`, which only plans the retry. */
const storedError = ({ retry_after_ms: _retryAfter, ...error }: CallError, at: string) => ({
  ...error,
  at,
});

/**
 * What a call's result does to its job at `now` (the live clock): an answer or a permanent
 * error closes it (and is applied); `accepted` waits for the callback; a transient failure
 * is retried after a backoff (but never sooner than the error's `retry_after_ms`, e.g. the
 * partner's `Retry-After`), or exhausted when no retry starts before the deadline. Pure
 * but for `settings.random`.
 */
export function planSettle(
  job: HandoffJobRow,
  result: CallResult,
  now: Date,
  settings: Pick<HandoffSettings, 'retry' | 'random'>,
): SettlePlan {
  const at = now.toISOString();
  switch (result.kind) {
    case 'answer':
      return {
        next: { ...released(job, at), status: 'closed' },
        outcome: 'answered',
        answer: result.answer,
        error: null,
      };
    case 'accepted':
      return {
        next: { ...released(job, at), status: 'accepted' },
        outcome: 'accepted',
        answer: null,
        error: null,
      };
    case 'permanent': {
      const { error } = result;
      const answer: HandoffAnswer = {
        outcome: 'failed',
        reference: job.idempotency_key,
        data: { error: { class: error.class, message: error.message, status: error.status } },
      };
      return {
        next: { ...released(job, at), status: 'closed', last_error: storedError(error, at) },
        outcome: 'failed',
        answer,
        error,
      };
    }
    case 'transient': {
      const { error } = result;
      const waitMs = Math.max(
        backoffMs(job.calls, settings.retry, settings.random),
        error.retry_after_ms ?? 0,
      );
      const retryAt = new Date(now.getTime() + waitMs);
      // Not `>=`: a wait too long for a Date (NaN) is exhausted too.
      const exhausted = !(retryAt.getTime() < Date.parse(job.deadline));
      const next: HandoffJobRow = {
        ...released(job, at),
        status: exhausted ? 'exhausted' : 'queued',
        next_attempt_at: exhausted ? job.next_attempt_at : retryAt.toISOString(),
        last_error: storedError(error, at),
      };
      return { next, outcome: exhausted ? 'exhausted' : 'retrying', answer: null, error };
    }
  }
}
