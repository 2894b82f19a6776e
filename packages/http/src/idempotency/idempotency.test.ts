import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@programrun/engine';
import { HttpError } from '../errors/http-error.js';
import { jsonResponse } from '../json-response.js';
import {
  answerIdempotentlyWithin,
  withIdempotency,
  type IdempotencyPolicy,
  type IdempotentRequest,
} from './idempotency.js';

function setup() {
  let now = new Date('2026-01-01T00:00:00.000Z');
  const policy: IdempotencyPolicy = { retentionMs: 24 * 3600_000, lockMs: 60_000, now: () => now };
  const request: IdempotentRequest = {
    store: createMemoryStore(),
    scope: { account: 'acct', environment: 'test' },
    key: 'key-1',
    method: 'POST',
    path: '/v1/program-runs',
    body: { scenario_id: 'x@v1', inputs: { amount: '1.00' } },
    requestId: 'req_first',
  };
  return { policy, request, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

const codeOf = async (promise: Promise<unknown>): Promise<string | undefined> =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof HttpError ? error.code : String(error)),
  );

describe('withIdempotency', () => {
  it('answers 409 while the first request runs, then replays its response', async () => {
    const { policy, request } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let executions = 0;
    const work = async () => {
      executions += 1;
      await gate;
      return jsonResponse(201, { id: 'prun_1' });
    };
    const first = withIdempotency(request, policy, work);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await codeOf(withIdempotency(request, policy, work))).toBe('idempotency_key_in_use');
    release();
    const response = await first;
    expect(response.status).toBe(201);
    const replay = await withIdempotency(request, policy, work);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('original-request-id')).toBe('req_first');
    expect(await replay.text()).toBe('{"id":"prun_1"}');
    expect(executions).toBe(1);
  });

  it('refuses the key for a different body, even with keys in another order matching', async () => {
    const { policy, request } = setup();
    await withIdempotency(request, policy, () => Promise.resolve(jsonResponse(201, {})));
    const reordered = { ...request, body: { inputs: { amount: '1.00' }, scenario_id: 'x@v1' } };
    expect(
      (await withIdempotency(reordered, policy, () => Promise.resolve(jsonResponse(500, {}))))
        .status,
    ).toBe(201);
    const different = { ...request, body: { scenario_id: 'x@v1', inputs: { amount: '2.00' } } };
    expect(
      await codeOf(
        withIdempotency(different, policy, () => Promise.resolve(jsonResponse(201, {}))),
      ),
    ).toBe('idempotency_key_reused');
    expect(
      await codeOf(
        withIdempotency({ ...request, path: '/v1/other' }, policy, () =>
          Promise.resolve(jsonResponse(201, {})),
        ),
      ),
    ).toBe('idempotency_key_reused');
  });

  it('lets a retry take over a request whose lock expired (a crashed host)', async () => {
    const { policy, request, advance } = setup();
    void withIdempotency(request, policy, () => new Promise<Response>(() => undefined));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(
      await codeOf(withIdempotency(request, policy, () => Promise.resolve(jsonResponse(201, {})))),
    ).toBe('idempotency_key_in_use');
    advance(61_000);
    expect(
      (
        await withIdempotency(request, policy, () =>
          Promise.resolve(jsonResponse(201, { retried: true })),
        )
      ).status,
    ).toBe(201);
  });

  it('stores neither validation failures nor server errors, so they can be retried', async () => {
    const { policy, request } = setup();
    expect(
      (await withIdempotency(request, policy, () => Promise.resolve(jsonResponse(422, {})))).status,
    ).toBe(422);
    expect(
      await codeOf(withIdempotency(request, policy, () => Promise.reject(new Error('boom')))),
    ).toBe('Error: boom');
    const success = await withIdempotency(request, policy, () =>
      Promise.resolve(jsonResponse(201, { ok: true })),
    );
    expect(success.headers.get('idempotent-replayed')).toBeNull();
  });

  it('stores decided conflicts (409) like successes, with their content type', async () => {
    const { policy, request } = setup();
    const problem = new Response('{"code":"run_finished"}', {
      status: 409,
      headers: { 'content-type': 'application/problem+json' },
    });
    await withIdempotency(request, policy, () => Promise.resolve(problem));
    const replay = await withIdempotency(request, policy, () =>
      Promise.resolve(jsonResponse(200, {})),
    );
    expect(replay.status).toBe(409);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('content-type')).toBe('application/problem+json');
    expect(await replay.text()).toBe('{"code":"run_finished"}');
  });

  it('does not store a transient conflict (concurrent_update): the retry runs again', async () => {
    const { policy, request } = setup();
    const conflict = await withIdempotency(request, policy, () =>
      Promise.resolve(
        new Response('{"code":"concurrent_update"}', {
          status: 409,
          headers: { 'content-type': 'application/problem+json' },
        }),
      ),
    );
    expect(conflict.status).toBe(409);
    expect(await conflict.text()).toBe('{"code":"concurrent_update"}');
    const retry = await withIdempotency(request, policy, () =>
      Promise.resolve(jsonResponse(201, { ok: true })),
    );
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets keys after the retention period', async () => {
    const { policy, request, advance } = setup();
    await withIdempotency(request, policy, () =>
      Promise.resolve(jsonResponse(201, { first: true })),
    );
    advance(24 * 3600_000 + 1);
    const fresh = await withIdempotency({ ...request, body: { other: true } }, policy, () =>
      Promise.resolve(jsonResponse(201, { second: true })),
    );
    expect(await fresh.text()).toBe('{"second":true}');
  });
});

describe('answerIdempotentlyWithin', () => {
  const within = (
    { store, ...request }: IdempotentRequest,
    policy: IdempotencyPolicy,
    work: () => Promise<Response>,
  ) => store.transaction((tx) => answerIdempotentlyWithin(tx, request, policy, work));

  it('stores the answer in the same transaction and replays it byte for byte', async () => {
    const { policy, request } = setup();
    let executions = 0;
    const work = () => {
      executions += 1;
      return Promise.resolve(jsonResponse(201, { id: 'prun_1' }));
    };
    const first = await within(request, policy, work);
    expect(first.status).toBe(201);
    const replay = await within({ ...request, requestId: 'req_retry' }, policy, work);
    expect(executions).toBe(1);
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe('{"id":"prun_1"}');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('original-request-id')).toBe('req_first');
  });

  it('stores nothing when the work throws, so the whole transaction can be retried', async () => {
    const { policy, request } = setup();
    expect(
      await codeOf(
        within(request, policy, () => Promise.reject(new HttpError('malformed_json', 'bad'))),
      ),
    ).toBe('malformed_json');
    const scope = request.scope;
    expect(
      await request.store.transaction((tx) => tx.getIdempotencyRecord(scope, request.key)),
    ).toBeUndefined();
    const success = await within(request, policy, () =>
      Promise.resolve(jsonResponse(201, { ok: true })),
    );
    expect(success.status).toBe(201);
  });

  it('does not store answers that decided nothing (422, 5xx, concurrent_update)', async () => {
    const { policy, request } = setup();
    for (const [status, body] of [
      [422, { code: 'invalid_inputs' }],
      [503, { code: 'store_unavailable' }],
      [409, { code: 'concurrent_update' }],
    ] as const) {
      const answer = await within(request, policy, () =>
        Promise.resolve(jsonResponse(status, body)),
      );
      expect(answer.status).toBe(status);
      expect(
        await request.store.transaction((tx) =>
          tx.getIdempotencyRecord(request.scope, request.key),
        ),
      ).toBeUndefined();
    }
  });

  it('refuses the key for another request and while an in-flight claim holds it', async () => {
    const { policy, request } = setup();
    await within(request, policy, () => Promise.resolve(jsonResponse(201, {})));
    expect(
      await codeOf(
        within({ ...request, body: { other: true } }, policy, () =>
          Promise.resolve(jsonResponse(201, {})),
        ),
      ),
    ).toBe('idempotency_key_reused');
    const other = { ...request, key: 'key-2' };
    void withIdempotency(other, policy, () => new Promise<Response>(() => undefined));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await codeOf(within(other, policy, () => Promise.resolve(jsonResponse(201, {}))))).toBe(
      'idempotency_key_in_use',
    );
  });
});
