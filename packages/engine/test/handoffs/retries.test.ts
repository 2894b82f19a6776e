import { describe, expect, it } from 'vitest';
import {
  PermanentConnectorError,
  TransientConnectorError,
  partnerIdempotencyKey,
  type HandoffAnswer,
  type HandoffConnector,
} from '../../src/index.js';
import { createPayout, harness, jobsOf, live, recordsOf, typesOf } from './harness.js';

/** A connector that plays `script` call by call, recording each call's key and number. */
function scripted(script: readonly (() => HandoffAnswer | 'accepted')[]) {
  const seen: { key: string; attempt: number; pik: string }[] = [];
  const connector: HandoffConnector = async (request, context) => {
    seen.push({
      key: context.idempotencyKey,
      attempt: context.attempt,
      pik: request.idempotency_key,
    });
    await Promise.resolve(); // a partner answers asynchronously
    return script[Math.min(seen.length - 1, script.length - 1)]!();
  };
  return { connector, seen };
}

describe('retries of a live connector', () => {
  it('retries transient failures with the same pik_ key and call numbers 1..n', async () => {
    const { connector, seen } = scripted([
      () => {
        throw new TransientConnectorError('http_5xx', 'bad gateway', 502);
      },
      () => {
        throw new Error('socket hang up');
      },
      () => ({ outcome: 'failed' }) as unknown as HandoffAnswer, // invalid: no reference
      () => ({ outcome: 'confirmed', reference: 'PAY-4' }),
    ]);
    const { engine, advance } = harness({
      connectors: { bank: connector },
      handoffs: { retry: { initialMs: 1_000, factor: 2, maxMs: 10_000 } },
    });
    const run = await createPayout(engine);
    const pik = partnerIdempotencyKey(run.id, 'pay', 1);

    expect(await engine.runDueHandoffs('live')).toBe(1);
    const retrying = (await engine.getRun(live, run.id)).awaiting?.handoff_job;
    expect(retrying).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: { class: 'http_5xx', message: 'bad gateway', status: 502 },
    });
    expect(retrying!.next_attempt_at! >= run.created_at).toBe(true);
    expect(Date.parse(retrying!.next_attempt_at!) - Date.parse(run.created_at)).toBeLessThan(1_000);
    for (let round = 0; round < 3; round += 1) {
      advance(10_000); // past any backoff (the ceiling is 1 s, 2 s, 4 s)
      expect(await engine.runDueHandoffs('live')).toBe(1);
    }
    expect(seen).toEqual([1, 2, 3, 4].map((attempt) => ({ key: pik, attempt, pik })));
    expect((await engine.getRun(live, run.id)).status).toBe('completed');
    const attempts = await recordsOf(engine, live, run.id, 'program_run.handoff.attempted');
    expect(
      attempts.map((record) => [record.data.call, record.data.outcome, record.data.error_class]),
    ).toEqual([
      [1, 'retrying', 'http_5xx'],
      [2, 'retrying', 'thrown'],
      [3, 'retrying', 'invalid_answer'],
      [4, 'answered', null],
    ]);
    expect(attempts.every((record) => record.data.idempotency_key === pik)).toBe(true);
    expect(attempts[0]!.data.status).toBe(502);
    expect(typeof attempts[0]!.data.next_attempt_at).toBe('string');
  });

  it('applies a permanent error as a failed answer without retrying', async () => {
    const { connector, seen } = scripted([
      () => {
        throw new PermanentConnectorError('http_4xx', 'unknown account', {
          status: 422,
          problem: '{"error":"unknown account"}',
        });
      },
    ]);
    const { engine, store } = harness({ connectors: { bank: connector } });
    const run = await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    const after = await engine.getRun(live, run.id);
    expect(after).toMatchObject({
      status: 'faulted',
      outcome: { step: 'pay', reason: 'handoff_failed' },
    });
    const [failed] = await recordsOf(engine, live, run.id, 'program_run.handoff.failed');
    expect(failed!.data).toMatchObject({
      reference: partnerIdempotencyKey(run.id, 'pay', 1),
      data: { error: { class: 'http_4xx', message: 'unknown account', status: 422 } },
      answered_by: { actor: 'connector:bank' },
    });
    const [attempted] = await recordsOf(engine, live, run.id, 'program_run.handoff.attempted');
    expect(attempted!.data).toMatchObject({
      outcome: 'failed',
      error_class: 'http_4xx',
      status: 422,
    });
    expect(seen).toHaveLength(1);
    expect((await jobsOf(store, run.id))[0]).toMatchObject({ status: 'closed', calls: 1 });
  });

  it('exhausts a job when no retry fits before the deadline, and the timeout still decides', async () => {
    let advanceDuringCall = (): void => undefined;
    const { engine, store, advance } = harness({
      connectors: {
        bank: () => {
          advanceDuringCall();
          return Promise.reject(new TransientConnectorError('timeout', 'no answer in time'));
        },
      },
    });
    const run = await createPayout(engine);
    // The call fails as the handoff's ten minutes run out: no retry can start in time.
    advanceDuringCall = () => advance(10 * 60_000);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    const waiting = await engine.getRun(live, run.id);
    expect(waiting.awaiting?.handoff_job).toMatchObject({
      status: 'exhausted',
      attempts: 1,
      next_attempt_at: null,
      last_error: { class: 'timeout' },
    });
    const [attempted] = await recordsOf(engine, live, run.id, 'program_run.handoff.attempted');
    expect(attempted!.data).toMatchObject({ outcome: 'exhausted', next_attempt_at: null });
    expect(await engine.runDueHandoffs('live')).toBe(0);

    expect(await engine.runDueTimers('live')).toBe(1);
    expect(await engine.getRun(live, run.id)).toMatchObject({
      status: 'faulted',
      outcome: { reason: 'handoff_timed_out' },
    });
    expect((await typesOf(engine, live, run.id)).slice(-4)).toEqual([
      'program_run.handoff.attempted',
      'program_run.handoff.timed_out',
      'program_run.faulted',
      'program_run.evidence.sealed',
    ]);
    expect((await jobsOf(store, run.id))[0]!.status).toBe('closed');
  });
});
