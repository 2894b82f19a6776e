import { canonicalDigest } from '@programrun/evidence';
import type { IdempotencyRecord, Scope, StoreTransactionV1, StoreV1 } from '@programrun/engine';
import { rememberResponseText, responseText } from '../body-cache.js';
import { HttpError } from '../errors/http-error.js';

/** How the Idempotency-Key protocol behaves. */
export interface IdempotencyPolicy {
  /** How long a completed response is replayed. @default 24 hours */
  readonly retentionMs: number;
  /** How long an in-flight request holds its key before another may take it over. @default 60 s */
  readonly lockMs: number;
  /** Wall clock for retention and locks. */
  readonly now: () => Date;
}

/** The idempotent request being processed. */
export interface IdempotentRequest {
  readonly store: StoreV1;
  readonly scope: Scope;
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  /** `Request-Id` of this request, kept with the stored response. */
  readonly requestId: string;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's `Idempotency-Key`, validated; undefined when absent and optional.
 *
 * @example
 * ```ts
 * const key = idempotencyKeyOf(request, { required: true }); // throws idempotency_key_missing when absent
 * ```
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

type StoredResponse = NonNullable<IdempotencyRecord['response']>;

/** Digest over what makes two requests "the same": method, path and canonical body. */
function fingerprintOf(request: Omit<IdempotentRequest, 'store'>): string {
  return canonicalDigest({
    method: request.method,
    path: request.path,
    body: request.body as never,
  });
}

/**
 * Reads the key's record inside `tx` (PostgreSQL holds the key's lock until commit):
 * the stored answer to replay, or undefined when this request may run. Throws
 * `idempotency_key_reused` for another request under the key and
 * `idempotency_key_in_use` while the key's first request is still running.
 */
async function claimableAnswer(
  tx: StoreTransactionV1,
  scope: Scope,
  key: string,
  fingerprint: string,
  now: Date,
): Promise<StoredResponse | undefined> {
  const existing = await tx.getIdempotencyRecord(scope, key);
  const live = existing && existing.expires_at > now.toISOString() ? existing : undefined;
  if (live && live.fingerprint !== fingerprint) {
    throw new HttpError(
      'idempotency_key_reused',
      'This Idempotency-Key was used for a different request; use a new key for a new request.',
    );
  }
  if (live?.state === 'completed' && live.response) return live.response;
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
function replayOf(stored: StoredResponse): Response {
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
function completedRecord(
  request: Omit<IdempotentRequest, 'store'>,
  fingerprint: string,
  response: Response,
  body: string,
  policy: IdempotencyPolicy,
): IdempotencyRecord {
  const now = policy.now();
  return {
    account: request.scope.account,
    environment: request.scope.environment,
    key: request.key,
    fingerprint,
    state: 'completed',
    response: {
      status: response.status,
      body,
      content_type: response.headers.get('content-type') ?? 'application/json',
      request_id: request.requestId,
    },
    locked_until: now.toISOString(),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + policy.retentionMs).toISOString(),
  };
}

/**
 * Runs `work` at most once per key (IETF Idempotency-Key draft): a retry of the same
 * request replays the stored status and body with `Idempotent-Replayed: true`; the same
 * key with another request is 422; a key whose first request still runs is 409.
 * Validation failures and server errors are not stored, so they can be retried.
 *
 * `work` runs between two short transactions (claim, then completion), so it may take
 * transactions of its own. When the work is one store transaction, prefer
 * {@link answerIdempotentlyWithin}: one transaction, no in-flight window.
 *
 * @example
 * ```ts
 * return withIdempotency({ store, scope, key, method, path, body }, policy, () => createRun());
 * ```
 */
export async function withIdempotency(
  request: IdempotentRequest,
  policy: IdempotencyPolicy,
  work: () => Promise<Response>,
): Promise<Response> {
  const { store, scope, key } = request;
  const fingerprint = fingerprintOf(request);
  const replay = await store.transaction(async (tx) => {
    const now = policy.now();
    const stored = await claimableAnswer(tx, scope, key, fingerprint, now);
    if (stored) return stored;
    await tx.putIdempotencyRecord({
      account: scope.account,
      environment: scope.environment,
      key,
      fingerprint,
      state: 'in_flight',
      response: null,
      locked_until: new Date(now.getTime() + policy.lockMs).toISOString(),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + policy.retentionMs).toISOString(),
    });
    return undefined;
  });
  if (replay) return replayOf(replay);

  let response: Response;
  try {
    response = await work();
  } catch (error) {
    await store.transaction((tx) => tx.deleteIdempotencyRecord(scope, key));
    throw error;
  }
  if (!isFinalOutcome(response.status)) {
    await store.transaction((tx) => tx.deleteIdempotencyRecord(scope, key));
    return response;
  }
  const body = await responseText(response);
  if (response.status === 409 && TRANSIENT_CONFLICTS.has(problemCode(body) ?? '')) {
    await store.transaction((tx) => tx.deleteIdempotencyRecord(scope, key));
    return rememberResponseText(
      new Response(body, { status: response.status, headers: response.headers }),
      body,
    );
  }
  await store.transaction((tx) =>
    tx.putIdempotencyRecord(completedRecord(request, fingerprint, response, body, policy)),
  );
  // The body was read from our own text (not the stream), so the response is still whole.
  return response;
}

/**
 * The Idempotency-Key protocol inside a transaction the caller already holds (such as
 * `engine.createRunWithin`): the key's record is read, `work` runs, and its answer is
 * stored before the same commit, so a run and its replayable answer exist together or
 * not at all. A concurrent request with the key waits for the commit and then replays.
 * Anything `work` throws rolls everything back and stores nothing; a non-final answer
 * (4xx other than 409, 5xx) is returned without being stored.
 *
 * @example
 * ```ts
 * return engine.createRunWithin(scope, (tx, create) =>
 *   answerIdempotentlyWithin(tx, { scope, key, method, path, body, requestId }, policy, async () =>
 *     jsonResponse(201, (await create(runRequest)).run),
 *   ),
 * );
 * ```
 */
export async function answerIdempotentlyWithin(
  tx: StoreTransactionV1,
  request: Omit<IdempotentRequest, 'store'>,
  policy: IdempotencyPolicy,
  work: () => Promise<Response>,
): Promise<Response> {
  const fingerprint = fingerprintOf(request);
  const stored = await claimableAnswer(tx, request.scope, request.key, fingerprint, policy.now());
  if (stored) return replayOf(stored);
  const response = await work();
  if (!isFinalOutcome(response.status)) return response;
  const body = await responseText(response);
  if (response.status === 409 && TRANSIENT_CONFLICTS.has(problemCode(body) ?? '')) return response;
  await tx.putIdempotencyRecord(completedRecord(request, fingerprint, response, body, policy));
  return response;
}
