import { describe, expect, it } from 'vitest';
import { partnerIdempotencyKey } from '../../src/index.js';
import { createPayout, deferred, harness, jobsOf, live, recordsOf, typesOf } from './harness.js';

describe('answers that come back through the callback', () => {
  it('waits on an accepted job until the partner calls back, and never calls again', async () => {
    let calls = 0;
    const { engine, store } = harness({
      connectors: {
        bank: () => {
          calls += 1;
          return Promise.resolve('accepted');
        },
      },
    });
    const run = await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    const waiting = await engine.getRun(live, run.id);
    expect(waiting.status).toBe('waiting');
    expect(waiting.awaiting?.handoff_job).toEqual({
      status: 'accepted',
      attempts: 1,
      next_attempt_at: null,
      last_error: null,
    });
    const [attempted] = await recordsOf(engine, live, run.id, 'program_run.handoff.attempted');
    expect(attempted!.data).toMatchObject({ outcome: 'accepted', call: 1 });

    const { applied, run: done } = await engine.signal(live, run.id, {
      kind: 'handoff',
      step: 'pay',
      outcome: 'confirmed',
      reference: 'PAY-9',
      idempotency_key: partnerIdempotencyKey(run.id, 'pay', 1),
    });
    expect(applied).toBe(true);
    expect(done.status).toBe('completed');
    expect((await jobsOf(store, run.id)).map((job) => job.status)).toEqual(['closed']);
    expect(await engine.runDueHandoffs('live')).toBe(0);
    expect(calls).toBe(1);
  });

  it('applies an answer once when the connector answers and a callback also arrives', async () => {
    const release = deferred<void>();
    const called = deferred<void>();
    const { engine, store } = harness({
      connectors: {
        bank: async () => {
          called.resolve();
          await release.promise;
          return { outcome: 'confirmed', reference: 'FROM-CONNECTOR' };
        },
      },
    });
    const run = await createPayout(engine);
    const working = engine.runDueHandoffs('live');
    await called.promise;
    // The partner's callback wins while the connector's call is still out.
    const callback = await engine.signal(live, run.id, {
      kind: 'handoff',
      step: 'pay',
      outcome: 'confirmed',
      reference: 'FROM-CALLBACK',
      idempotency_key: partnerIdempotencyKey(run.id, 'pay', 1),
    });
    expect(callback.applied).toBe(true);
    release.resolve();
    expect(await working).toBe(0); // the connector's late result was dropped
    const confirmed = await recordsOf(engine, live, run.id, 'program_run.handoff.confirmed');
    expect(confirmed.map((record) => record.data.reference)).toEqual(['FROM-CALLBACK']);
    expect(await recordsOf(engine, live, run.id, 'program_run.handoff.attempted')).toEqual([]);
    expect((await jobsOf(store, run.id)).map((job) => job.status)).toEqual(['closed']);
  });

  it('treats a callback after the connector answered as the duplicate it is', async () => {
    const { engine } = harness({
      connectors: { bank: () => Promise.resolve({ outcome: 'confirmed', reference: 'PAY-1' }) },
    });
    const run = await createPayout(engine);
    await engine.runDueHandoffs('live');
    const late = await engine.signal(live, run.id, {
      kind: 'handoff',
      step: 'pay',
      outcome: 'confirmed',
      reference: 'PAY-1',
      idempotency_key: partnerIdempotencyKey(run.id, 'pay', 1),
    });
    expect(late.applied).toBe(false);
    expect(
      (await typesOf(engine, live, run.id)).filter(
        (type) => type === 'program_run.handoff.confirmed',
      ),
    ).toHaveLength(1);
  });

  it('closes an accepted job when the step times out', async () => {
    const { engine, store, advance } = harness({
      connectors: { bank: () => Promise.resolve('accepted') },
    });
    const run = await createPayout(engine);
    await engine.runDueHandoffs('live');
    advance(10 * 60_000);
    expect(await engine.runDueTimers('live')).toBe(1);
    expect((await engine.getRun(live, run.id)).outcome?.reason).toBe('handoff_timed_out');
    expect((await jobsOf(store, run.id)).map((job) => job.status)).toEqual(['closed']);
    expect(await engine.runDueHandoffs('live')).toBe(0);
  });
});
