import { describe, expect, it } from 'vitest';
import { TransientConnectorError, type HandoffConnector } from '../../src/index.js';
import { handoffJob } from '../../src/store-contract/handoff-job-fixtures.js';
import { classifyThrown, type CallResult } from '../../src/handoffs/call-connector.js';
import { planSettle } from '../../src/handoffs/settle-plan.js';
import { createPayout, harness, jobsOf, live, recordsOf, START } from './harness.js';

const retry = { initialMs: 1_000, factor: 2, maxMs: 10_000 };
const NOW = new Date('2026-01-01T00:10:00.000Z');

/** A job after its first call, due again before a deadline at 00:50:00. */
const job = handoffJob('job_1', 'acct_1', 'bank', 0, { calls: 1 });

const transient = (retryAfterMs?: number | null): CallResult => ({
  kind: 'transient',
  error: {
    class: 'rate_limited',
    message: 'The partner answered 429.',
    status: 429,
    ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }),
  },
});

const settle = (result: CallResult, random = 0.5) =>
  planSettle(job, result, NOW, { retry, random: () => random });

const delayOf = (nextAttemptAt: string) => Date.parse(nextAttemptAt) - NOW.getTime();

describe('planSettle: retry_after_ms', () => {
  it('waits the backoff when the error has no retry_after_ms', () => {
    expect(delayOf(settle(transient()).next.next_attempt_at)).toBe(500);
    expect(delayOf(settle(transient(null)).next.next_attempt_at)).toBe(500);
  });

  it('waits retry_after_ms when it is longer than the backoff', () => {
    const plan = settle(transient(30_000));
    expect(plan.outcome).toBe('retrying');
    expect(plan.next.status).toBe('queued');
    expect(delayOf(plan.next.next_attempt_at)).toBe(30_000);
  });

  it('keeps the backoff when it is longer than retry_after_ms', () => {
    expect(delayOf(settle(transient(200), 0.9).next.next_attempt_at)).toBe(900);
    expect(delayOf(settle(transient(0)).next.next_attempt_at)).toBe(500);
  });

  it('is exhausted when the wait does not end before the deadline', () => {
    const untilDeadline = Date.parse(job.deadline) - NOW.getTime();
    const atDeadline = settle(transient(untilDeadline));
    expect(atDeadline.outcome).toBe('exhausted');
    expect(atDeadline.next).toMatchObject({
      status: 'exhausted',
      next_attempt_at: job.next_attempt_at,
    });
    expect(settle(transient(untilDeadline - 1)).outcome).toBe('retrying');
    expect(settle(transient(Number.MAX_SAFE_INTEGER)).outcome).toBe('exhausted');
  });

  it('does not store retry_after_ms in last_error', () => {
    const plan = settle(transient(30_000));
    expect(plan.next.last_error).toEqual({
      class: 'rate_limited',
      message: 'The partner answered 429.',
      status: 429,
      at: NOW.toISOString(),
    });
    expect(plan.error?.retry_after_ms).toBe(30_000);
  });
});

describe('classifyThrown: retryAfterMs', () => {
  it("carries a TransientConnectorError's retryAfterMs as retry_after_ms", () => {
    const error = new TransientConnectorError('rate_limited', 'slow down', 429, 12_000);
    expect(classifyThrown(error, false)).toEqual({
      kind: 'transient',
      error: { class: 'rate_limited', message: 'slow down', status: 429, retry_after_ms: 12_000 },
    });
  });

  it('leaves it out when absent or not a finite, non-negative number', () => {
    const plain = new TransientConnectorError('http_5xx', 'bad gateway', 502);
    expect(classifyThrown(plain, false)).toEqual({
      kind: 'transient',
      error: { class: 'http_5xx', message: 'bad gateway', status: 502 },
    });
    for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const odd = new TransientConnectorError('http_5xx', 'bad gateway', 502, value);
      const result = classifyThrown(odd, false);
      expect(result.kind === 'transient' && result.error.retry_after_ms).toBeUndefined();
    }
  });
});

describe('a live connector asking to wait (retryAfterMs)', () => {
  it('schedules the next call no sooner than retryAfterMs, and the job keeps no new field', async () => {
    let calls = 0;
    const bank: HandoffConnector = async () => {
      calls += 1;
      await Promise.resolve();
      if (calls === 1) {
        throw new TransientConnectorError(
          'rate_limited',
          'The partner answered 429.',
          429,
          120_000,
        );
      }
      return { outcome: 'confirmed', reference: 'PAY-1' };
    };
    const { engine, store, advance } = harness({
      connectors: { bank },
      handoffs: { retry: { initialMs: 1_000, factor: 2, maxMs: 10_000 } },
    });
    const run = await createPayout(engine);

    expect(await engine.runDueHandoffs('live')).toBe(1);
    const [queued] = await jobsOf(store, run.id);
    expect(queued).toMatchObject({ status: 'queued', calls: 1 });
    // The backoff is under 1 s; the partner asked for two minutes.
    expect(queued!.next_attempt_at).toBe(new Date(Date.parse(START) + 120_000).toISOString());
    expect(queued!.last_error).toEqual({
      class: 'rate_limited',
      message: 'The partner answered 429.',
      status: 429,
      at: START,
    });
    const [attempted] = await recordsOf(engine, live, run.id, 'program_run.handoff.attempted');
    expect(attempted!.data).toMatchObject({
      outcome: 'retrying',
      next_attempt_at: queued!.next_attempt_at,
    });

    advance(119_000);
    expect(await engine.runDueHandoffs('live')).toBe(0);
    advance(1_000);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect(calls).toBe(2);
    expect((await engine.getRun(live, run.id)).status).toBe('completed');
  });

  it('exhausts the job when the wait outlasts the handoff deadline', async () => {
    const bank: HandoffConnector = () =>
      Promise.reject(
        new TransientConnectorError('http_5xx', 'The partner answered 503.', 503, 3_600_000),
      );
    const { engine, store } = harness({ connectors: { bank } });
    const run = await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect((await jobsOf(store, run.id))[0]).toMatchObject({ status: 'exhausted', calls: 1 });
  });
});
