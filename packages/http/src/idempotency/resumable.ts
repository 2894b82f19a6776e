import type { JsonObject } from '@programrun/evidence';
import type { UnitOfWork } from '@programrun/engine';
import { responseText } from '../body-cache.js';
import {
  completedRecord,
  fingerprintOf,
  recordedFor,
  replayable,
  replayOf,
  type IdempotencyPolicy,
  type IdempotentRequest,
} from './idempotency.js';

/** What the first unit of work decided: replay an answer, or carry out a plan. */
export type ResumableDecision = { readonly replay: Response } | { readonly plan: JsonObject };

/**
 * The Idempotency-Key protocol for work that spans transactions and is idempotent given
 * its plan (moving a test clock to an absolute time): in one unit of work, the key is
 * locked and either its answer is replayed or the plan is recorded with it (`planned`
 * only runs for a new key). The caller then carries the plan out and stores the answer
 * with {@link completeResumable}. A retry, even after a crash, resumes the recorded plan
 * instead of making a new one, so the work is never repeated; there is no claim to expire.
 */
export async function decideResumable(
  uow: UnitOfWork,
  request: IdempotentRequest,
  policy: IdempotencyPolicy,
  planned: () => Promise<JsonObject>,
): Promise<ResumableDecision> {
  const fingerprint = fingerprintOf(request);
  const now = policy.now();
  const existing = await uow.tx.lockIdempotencyRecord(request.scope, request.key);
  // A recorded plan (fingerprint checked) resumes; anything else follows the usual rules.
  if (existing?.state === 'in_flight' && existing.response && recordedFor(existing, request))
    if (existing.expires_at > now.toISOString()) return { plan: existing.response };
  const stored = replayable(existing, request, now);
  if (stored) return { replay: replayOf(stored) };
  const plan = await planned();
  await uow.tx.putIdempotencyRecord({
    account: request.scope.account,
    environment: request.scope.environment,
    key: request.key,
    fingerprint,
    state: 'in_flight',
    response: plan,
    // Never locked: a retry resumes the plan rather than waiting for it.
    locked_until: now.toISOString(),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + policy.retentionMs).toISOString(),
  });
  return { plan };
}

/**
 * Stores the answer of a carried-out plan under its key, for replay.
 */
export async function completeResumable(
  uow: UnitOfWork,
  request: IdempotentRequest,
  policy: IdempotencyPolicy,
  response: Response,
): Promise<void> {
  const body = await responseText(response);
  await uow.tx.putIdempotencyRecord(
    completedRecord(request, fingerprintOf(request), response, body, policy),
  );
}
