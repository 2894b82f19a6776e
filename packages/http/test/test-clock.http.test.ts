// The test clock over HTTP: reading it with the account's next timer, advancing to that
// timer (never backwards, 409 when there is none), the body's one-of-two rule, and an
// Idempotency-Key that never moves time twice.
import { createVirtualClock, type Scope } from '@programrun/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFor } from './actors.js';
import { LIVE_KEY, OTHER_TEST_KEY, startTestServer, type TestServer } from './harness.js';

const START = '2026-03-02T09:00:00.000Z';
const scope: Scope = { account: 'acct_one', environment: 'test' };
const walletInputs = {
  amount: '125.00',
  destination_wallet_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  network: 'base',
};

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(base = createVirtualClock(START)) {
  const server = await startTestServer('handle', { testClock: base });
  servers.push(server);
  const json = async (
    method: string,
    path: string,
    options: Parameters<TestServer['request']>[2] = {},
  ) => {
    const response = await server.request(method, path, options);
    const body = (await response.json()) as Record<string, unknown> & {
      now: string;
      next_timer_at: string | null;
    };
    return { status: response.status, headers: response.headers, body };
  };
  return {
    server,
    base,
    json,
    clock: (key?: string) => json('GET', '/v1/test_helpers/clock', key ? { key } : {}),
    advance: (body: unknown, headers: Record<string, string> = {}) =>
      json('POST', '/v1/test_helpers/clock/advance', { body, headers }),
    createRun: async () =>
      (
        await server.engine.createRun(scope, {
          scenario_id: 'wallet-delivery@v1',
          inputs: walletInputs,
        })
      ).run.id,
  };
}

describe('GET /v1/test_helpers/clock', () => {
  it('answers the account’s clock and its earliest pending timer, null when none', async () => {
    const { server, clock, createRun } = await start();
    expect((await clock()).body).toEqual({ object: 'test_clock', now: START, next_timer_at: null });
    await createRun();
    const read = await clock();
    expect(read.status).toBe(200);
    expect(read.body.next_timer_at).toBe(await server.engine.nextTimerDue(scope));
    expect(read.body.next_timer_at! > START).toBe(true);
    // Another account's clock has no timer of this account.
    expect((await clock(OTHER_TEST_KEY)).body).toEqual({
      object: 'test_clock',
      now: START,
      next_timer_at: null,
    });
  });

  it('is for test keys with runs:read only', async () => {
    const { server, clock } = await start();
    expect((await clock(LIVE_KEY)).body).toMatchObject({ code: 'test_mode_only', status: 403 });
    const writer = await keyFor(server, 'writer', ['runs:write']);
    expect((await clock(writer.secret)).body).toMatchObject({ code: 'insufficient_scope' });
  });
});

describe('POST /v1/test_helpers/clock/advance { to: next_timer }', () => {
  it('moves to the earliest pending timer and fires it, answering the next one', async () => {
    const { server, clock, advance, createRun } = await start();
    const id = await createRun();
    const due = (await clock()).body.next_timer_at as string;
    const answer = await advance({ to: 'next_timer' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      object: 'test_clock',
      now: due,
      advanced_by: (Date.parse(due) - Date.parse(START)) / 1000,
    });
    expect(answer.body.timers_fired).toBeGreaterThanOrEqual(1);
    expect(answer.body.next_timer_at).toBe((await clock()).body.next_timer_at);
    expect((await server.engine.getRun(scope, id)).awaiting?.step).toBe('release_approval');
  });

  it('walks a run to its end one timer at a time, then answers 409 no_pending_timer', async () => {
    const { server, clock, advance, createRun } = await start();
    const id = await createRun();
    let next = (await clock()).body.next_timer_at;
    for (let step = 0; next !== null; step += 1) {
      expect(step).toBeLessThan(20);
      const answer = await advance({ to: 'next_timer' });
      expect(answer.status).toBe(200);
      expect(answer.body.now).toBe(next);
      next = answer.body.next_timer_at;
    }
    // The release approval expired: the run is over, nothing is pending.
    expect(['faulted', 'cancelled', 'completed']).toContain(
      (await server.engine.getRun(scope, id)).status,
    );
    const none = await advance({ to: 'next_timer' });
    expect(none.status).toBe(409);
    expect(none.headers.get('content-type')).toBe('application/problem+json');
    expect(none.body).toMatchObject({ code: 'no_pending_timer', title: 'No pending timer' });
    expect(none.body.detail).toContain((await clock()).body.now);
  });

  it('never moves backwards: a timer already due fires where the clock is', async () => {
    const base = createVirtualClock(START);
    const { clock, advance, createRun } = await start(base);
    await createRun();
    const due = (await clock()).body.next_timer_at as string;
    // The base clock passes the timer without anything firing it (no scheduler runs).
    const later = new Date(Date.parse(due) + 90_000).toISOString();
    base.advanceTo(new Date(later));
    expect((await clock()).body).toMatchObject({ now: later, next_timer_at: due });
    const answer = await advance({ to: 'next_timer' });
    expect(answer.body).toMatchObject({ now: later, advanced_by: 0 });
    expect(answer.body.timers_fired).toBeGreaterThanOrEqual(1);
    expect(answer.body.next_timer_at === null || answer.body.next_timer_at > due).toBe(true);
  });

  it('takes exactly one of `seconds` and `to`, with a pointer to the field', async () => {
    const { advance } = await start();
    const problems = async (body: unknown) => {
      const answer = await advance(body);
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe('invalid_request');
      return answer.body.errors as { pointer: string; code: string }[];
    };
    expect(await problems({})).toEqual([
      expect.objectContaining({ pointer: '/seconds', code: 'missing_field' }),
    ]);
    expect(await problems({ seconds: 5, to: 'next_timer' })).toEqual([
      expect.objectContaining({ pointer: '/to', code: 'invalid_field' }),
    ]);
    expect(await problems({ to: 'tomorrow' })).toEqual([
      expect.objectContaining({ pointer: '/to', code: 'invalid_field' }),
    ]);
    expect(await problems({ to: 'next_timer', later: true })).toEqual([
      expect.objectContaining({ pointer: '/later', code: 'unknown_field' }),
    ]);
  });

  it('advances by seconds as before, answering the next timer too', async () => {
    const { advance, createRun, clock } = await start();
    await createRun();
    const answer = await advance({ seconds: 1 });
    expect(answer.body).toEqual({
      object: 'test_clock',
      now: '2026-03-02T09:00:01.000Z',
      advanced_by: 1,
      timers_fired: 0,
      next_timer_at: (await clock()).body.next_timer_at,
    });
  });

  it('with an Idempotency-Key, replays a retry and never moves time twice, even concurrently', async () => {
    const { advance, createRun, clock } = await start();
    await createRun();
    const headers = { 'idempotency-key': 'advance-to-next-1' };
    const first = await advance({ to: 'next_timer' }, headers);
    expect(first.status).toBe(200);
    // A new timer meanwhile: the retry still answers what the first did.
    await createRun();
    const retry = await advance({ to: 'next_timer' }, headers);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await clock()).body.now).toBe(first.body.now);
    // The same body under another key is another advance.
    expect(
      (await advance({ to: 'next_timer' }, { 'idempotency-key': 'advance-to-next-2' })).body.now,
    ).not.toBe(first.body.now);

    const racing = { 'idempotency-key': 'advance-to-next-3' };
    const before = (await clock()).body as { now: string; next_timer_at: string };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => advance({ to: 'next_timer' }, racing)),
    );
    for (const answer of answers) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 200) expect(answer.body.now).toBe(before.next_timer_at);
      else expect(answer.body.code).toBe('idempotency_key_in_use');
    }
    expect((await clock()).body.now).toBe(before.next_timer_at);
  });
});
