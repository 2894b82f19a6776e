import { canonicalDigest } from '@programrun/evidence';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, type StoreV1 } from '@programrun/engine';
import { HttpError } from '../errors/http-error.js';
import { jsonResponse } from '../json-response.js';
import {
  answerIdempotently,
  type IdempotencyPolicy,
  type IdempotentRequest,
} from './idempotency.js';

function setup() {
  let now = new Date('2026-01-01T00:00:00.000Z');
  const policy: IdempotencyPolicy = {
    retentionMs: 24 * 3600_000,
    purgeEveryMs: 600_000,
    now: () => now,
  };
  const store = createMemoryStore();
  const request: IdempotentRequest = {
    scope: { account: 'acct', environment: 'test' },
    key: 'key-1',
    credentialId: 'key_checker_one',
    method: 'POST',
    path: '/v1/program-runs',
    body: { scenario_id: 'x@v1', inputs: { amount: '1.00' } },
    requestId: 'req_first',
  };
  return { store, policy, request, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

/** The protocol in one transaction of `store`, as a unit of work runs it. */
const answer = (
  store: StoreV1,
  request: IdempotentRequest,
  policy: IdempotencyPolicy,
  work: () => Promise<Response>,
) =>
  store.transaction((tx) =>
    answerIdempotently({ tx, afterCommit: () => undefined }, request, policy, work),
  );

const codeOf = async (promise: Promise<unknown>): Promise<string | undefined> =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof HttpError ? error.code : String(error)),
  );

const storedRecord = (store: StoreV1, request: IdempotentRequest) =>
  store.transaction((tx) => tx.lockIdempotencyRecord(request.scope, request.key));

describe('answerIdempotently', () => {
  it('stores the answer in the same transaction and replays it byte for byte', async () => {
    const { store, policy, request } = setup();
    let executions = 0;
    const work = () => {
      executions += 1;
      return Promise.resolve(jsonResponse(201, { id: 'prun_1' }));
    };
    const first = await answer(store, request, policy, work);
    expect(first.status).toBe(201);
    const replay = await answer(store, { ...request, requestId: 'req_retry' }, policy, work);
    expect(executions).toBe(1);
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe('{"id":"prun_1"}');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('original-request-id')).toBe('req_first');
  });

  it('makes a concurrent duplicate wait for the first request, then replay its answer', async () => {
    const { store, policy, request } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let executions = 0;
    const work = async () => {
      executions += 1;
      await gate;
      return jsonResponse(201, { id: 'prun_1' });
    };
    const first = answer(store, request, policy, work);
    const second = answer(store, { ...request, requestId: 'req_second' }, policy, work);
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    expect((await first).status).toBe(201);
    const replay = await second;
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('original-request-id')).toBe('req_first');
    expect(executions).toBe(1);
  });

  it('never lets a retry take a key over, however long the first request takes', async () => {
    const { store, policy, request, advance } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = answer(store, request, policy, async () => {
      await gate;
      return jsonResponse(201, { first: true });
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Long past any in-flight lock the old two-step protocol had (60 s).
    advance(10 * 60_000);
    const retry = answer(store, { ...request, requestId: 'req_retry' }, policy, () =>
      Promise.resolve(jsonResponse(201, { retried: true })),
    );
    release();
    await first;
    expect(await (await retry).text()).toBe('{"first":true}');
    expect((await storedRecord(store, request))?.response).toMatchObject({
      request_id: 'req_first',
    });
  });

  it('refuses the key for a different body, even with keys in another order matching', async () => {
    const { store, policy, request } = setup();
    await answer(store, request, policy, () => Promise.resolve(jsonResponse(201, {})));
    const reordered = { ...request, body: { inputs: { amount: '1.00' }, scenario_id: 'x@v1' } };
    expect(
      (await answer(store, reordered, policy, () => Promise.resolve(jsonResponse(500, {})))).status,
    ).toBe(201);
    const different = { ...request, body: { scenario_id: 'x@v1', inputs: { amount: '2.00' } } };
    expect(
      await codeOf(answer(store, different, policy, () => Promise.resolve(jsonResponse(201, {})))),
    ).toBe('idempotency_key_reused');
    expect(
      await codeOf(
        answer(store, { ...request, path: '/v1/other' }, policy, () =>
          Promise.resolve(jsonResponse(201, {})),
        ),
      ),
    ).toBe('idempotency_key_reused');
  });

  it("refuses another credential's reuse of a key instead of replaying the first one's answer", async () => {
    const { store, policy, request } = setup();
    await answer(store, request, policy, () => Promise.resolve(jsonResponse(201, {})));
    let executions = 0;
    const secondChecker = { ...request, credentialId: 'key_checker_two' };
    expect(
      await codeOf(
        answer(store, secondChecker, policy, () => {
          executions += 1;
          return Promise.resolve(jsonResponse(201, {}));
        }),
      ),
    ).toBe('idempotency_key_reused');
    expect(executions).toBe(0);
  });

  it('replays a record written before credential binding (no sender in its fingerprint) until it expires', async () => {
    const { store, policy, request } = setup();
    const legacy = canonicalDigest({
      method: request.method,
      path: request.path,
      body: request.body as never,
    });
    await store.transaction((tx) =>
      tx.putIdempotencyRecord({
        ...request.scope,
        key: request.key,
        fingerprint: legacy,
        state: 'completed',
        response: {
          status: 201,
          body: '{"id":"prun_old"}',
          content_type: 'application/json',
          request_id: 'req_old',
        },
        locked_until: new Date(0).toISOString(),
        created_at: policy.now().toISOString(),
        expires_at: new Date(policy.now().getTime() + 60_000).toISOString(),
      }),
    );
    const replay = await answer(store, request, policy, () =>
      Promise.reject(new Error('must not run')),
    );
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe('{"id":"prun_old"}');
  });

  it('stores nothing when the work throws, so the whole transaction can be retried', async () => {
    const { store, policy, request } = setup();
    expect(
      await codeOf(
        answer(store, request, policy, () =>
          Promise.reject(new HttpError('malformed_json', 'bad')),
        ),
      ),
    ).toBe('malformed_json');
    expect(await storedRecord(store, request)).toBeUndefined();
    const success = await answer(store, request, policy, () =>
      Promise.resolve(jsonResponse(201, { ok: true })),
    );
    expect(success.status).toBe(201);
    expect(success.headers.get('idempotent-replayed')).toBeNull();
  });

  it('does not store answers that decided nothing (422, 5xx, concurrent_update)', async () => {
    const { store, policy, request } = setup();
    for (const [status, body] of [
      [422, { code: 'invalid_inputs' }],
      [503, { code: 'store_unavailable' }],
      [409, { code: 'concurrent_update' }],
    ] as const) {
      const answered = await answer(store, request, policy, () =>
        Promise.resolve(jsonResponse(status, body)),
      );
      expect(answered.status).toBe(status);
      expect(await storedRecord(store, request)).toBeUndefined();
    }
    const retry = await answer(store, request, policy, () =>
      Promise.resolve(jsonResponse(201, { ok: true })),
    );
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('stores decided conflicts (409) like successes, with their content type', async () => {
    const { store, policy, request } = setup();
    const problem = new Response('{"code":"run_finished"}', {
      status: 409,
      headers: { 'content-type': 'application/problem+json' },
    });
    await answer(store, request, policy, () => Promise.resolve(problem));
    const replay = await answer(store, request, policy, () =>
      Promise.resolve(jsonResponse(200, {})),
    );
    expect(replay.status).toBe(409);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('content-type')).toBe('application/problem+json');
    expect(await replay.text()).toBe('{"code":"run_finished"}');
  });

  it('forgets keys after the retention period', async () => {
    const { store, policy, request, advance } = setup();
    await answer(store, request, policy, () => Promise.resolve(jsonResponse(201, { first: true })));
    advance(24 * 3600_000 + 1);
    const fresh = await answer(store, { ...request, body: { other: true } }, policy, () =>
      Promise.resolve(jsonResponse(201, { second: true })),
    );
    expect(await fresh.text()).toBe('{"second":true}');
  });

  it('honours an in-flight claim an earlier version wrote until its lock ends, then answers', async () => {
    const { store, policy, request, advance } = setup();
    const now = policy.now();
    await store.transaction((tx) =>
      tx.putIdempotencyRecord({
        account: request.scope.account,
        environment: request.scope.environment,
        key: request.key,
        fingerprint: 'sha256:irrelevant',
        state: 'in_flight',
        response: null,
        locked_until: new Date(now.getTime() + 60_000).toISOString(),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 24 * 3600_000).toISOString(),
      }),
    );
    const other = { ...request, key: 'key-2' };
    expect(
      (await answer(store, other, policy, () => Promise.resolve(jsonResponse(201, {})))).status,
    ).toBe(201);
    expect(
      await codeOf(answer(store, request, policy, () => Promise.resolve(jsonResponse(201, {})))),
    ).toBe('idempotency_key_reused');
    void advance;
  });
});
