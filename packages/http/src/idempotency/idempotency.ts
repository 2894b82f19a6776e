import { canonicalDigest, type JsonObject } from '@programrun/evidence';
import type { IdempotencyRecord, Scope, Transaction } from '@programrun/engine';
import { rememberResponseText, responseText } from '../body-cache.js';
import { HttpError } from '../errors/http-error.js';

/** How the Idempotency-Key protocol behaves. */
export interface IdempotencyPolicy {
  /** How long a completed response is replayed. @default 24 hours */
  readonly retentionMs: number;
  /** How often expired records are purged, at most (on the back of a request). @default 10 minutes */
  readonly purgeEveryMs: number;
  /** Wall clock for retention and purging. */
  readonly now: () => Date;
}

/** The idempotent request being answered. */
export interface IdempotentRequest {
  readonly scope: Scope;
  readonly key: string;
  /**
   * The credential that sent it: part of the fingerprint, so another credential of the
   * account reusing the key (two checkers deriving keys the same way) is refused rather
   * than answered with the first one's stored response.
   */
  readonly credentialId: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  /** `Request-Id` of this request, kept with the stored response. */
  readonly requestId: string;
}

/** What the store keeps under a key: the response, replayed byte for byte. */
export interface StoredResponse {
  readonly status: number;
  readonly body: string;
  readonly content_type: string;
  /** `Request-Id` of the request that produced it (replays send it as `Original-Request-Id`). */
  readonly request_id: string;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's `Idempotency-Key`, validated; undefined when absent and optional.
 */
export function idempotencyKeyOf(
  request: Request,
  options: { readonly required: boolean },
): string | undefined {
  const key = request.headers.get('idempotency-key');
  if (key === null || key === '') {
    if (!options.required) return undefined;
    throw new HttpError(
      'idempotency_key_missing',
      `${request.method} ${new URL(request.url).pathname} needs an Idempotency-Key header (a UUID per creation attempt).`,
    );
  }
  if (!KEY_PATTERN.test(key)) {
    throw new HttpError(
      'idempotency_key_invalid',
      'Idempotency-Key must be 1–255 visible ASCII characters, e.g. a UUID.',
    );
  }
  return key;
}

/** Responses worth replaying: the operation ran (success or a state conflict it decided). */
const isFinalOutcome = (status: number): boolean =>
  (status >= 200 && status < 300) || status === 409;

/** 409 codes that decide nothing (the run kept changing): a retry must run again. */
const TRANSIENT_CONFLICTS = new Set(['concurrent_update']);

/** The problem `code` of a JSON body, if it has one. */
function problemCode(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { code?: unknown } | null;
    return typeof parsed?.code === 'string' ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

/** Digest over what makes two requests "the same": sender, method, path and canonical body. */
export function fingerprintOf(request: IdempotentRequest): string {
  return canonicalDigest({
    credential: request.credentialId,
    method: request.method,
    path: request.path,
    body: request.body as never,
  });
}

/**
 * Whether a record was written for this request: its fingerprint, or the one versions
 * before credential binding wrote (no sender), honoured until those records expire.
 */
export function recordedFor(record: IdempotencyRecord, request: IdempotentRequest): boolean {
  return (
    record.fingerprint === fingerprintOf(request) ||
    record.fingerprint ===
      canonicalDigest({ method: request.method, path: request.path, body: request.body as never })
  );
}

/**
 * The stored answer to replay, or undefined when this request is the key's first. Throws
 * `idempotency_key_reused` for another request under the key. A record still `in_flight`
 * (written by an earlier version's two-step protocol) is in use until its lock ends.
 */
export function replayable(
  existing: IdempotencyRecord | undefined,
  request: IdempotentRequest,
  now: Date,
): StoredResponse | undefined {
  const live = existing && existing.expires_at > now.toISOString() ? existing : undefined;
  if (live && !recordedFor(live, request)) {
    throw new HttpError(
      'idempotency_key_reused',
      'This Idempotency-Key was used for a different request or by another credential; use a new key for a new request.',
    );
  }
  if (live?.state === 'completed' && live.response)
    return live.response as unknown as StoredResponse;
  if (live?.state === 'in_flight' && live.locked_until > now.toISOString()) {
    throw new HttpError(
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still in progress; retry shortly.',
      { headers: { 'retry-after': '1' } },
    );
  }
  return undefined;
}

/** The stored answer sent again, marked `Idempotent-Replayed: true`. */
export function replayOf(stored: StoredResponse): Response {
  return rememberResponseText(
    new Response(stored.body, {
      status: stored.status,
      headers: {
        'content-type': stored.content_type,
        'idempotent-replayed': 'true',
        'original-request-id': stored.request_id,
      },
    }),
    stored.body,
  );
}

/** The record that replays `response` (its text already read) for the retention period. */
export function completedRecord(
  request: IdempotentRequest,
  fingerprint: string,
  response: Response,
  body: string,
  policy: IdempotencyPolicy,
): IdempotencyRecord {
  const now = policy.now();
  const stored: StoredResponse = {
    status: response.status,
    body,
    content_type: response.headers.get('content-type') ?? 'application/json',
    request_id: request.requestId,
  };
  return {
    account: request.scope.account,
    environment: request.scope.environment,
    key: request.key,
    fingerprint,
    state: 'completed',
    response: stored as unknown as JsonObject,
    locked_until: now.toISOString(),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + policy.retentionMs).toISOString(),
  };
}

/**
 * The Idempotency-Key protocol (IETF draft) in one store transaction: the key's record is
 * locked and read, `work` runs, and its answer is stored before the same commit. So an
 * operation and its replayable answer exist together or not at all, and a concurrent
 * request with the key waits for the commit and then replays it: there is no in-flight
 * claim that could expire and be taken over. The same key with another request is 422.
 * Anything `work` throws rolls everything back and stores nothing; a non-final answer
 * (4xx other than 409, 5xx, `concurrent_update`) is returned without being stored.
 */
export async function answerIdempotently(
  transaction: Transaction,
  request: IdempotentRequest,
  policy: IdempotencyPolicy,
  work: () => Promise<Response>,
): Promise<Response> {
  const { tx } = transaction;
  const fingerprint = fingerprintOf(request);
  const existing = await tx.lockIdempotencyRecord(request.scope, request.key);
  const stored = replayable(existing, request, policy.now());
  if (stored) return replayOf(stored);
  const response = await work();
  if (!isFinalOutcome(response.status)) return response;
  const body = await responseText(response);
  if (response.status === 409 && TRANSIENT_CONFLICTS.has(problemCode(body) ?? '')) return response;
  await tx.putIdempotencyRecord(completedRecord(request, fingerprint, response, body, policy));
  return response;
}
