import { describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  createOffsetClock,
  createVirtualClock,
  partnerIdempotencyKey,
  type HandoffAnswer,
} from '../../src/index.js';
import { START, createPayout, deferred, harness, jobsOf, live, recordsOf } from './harness.js';

describe('leases of connector calls', () => {
  it('lets another worker take a call over after its lease, with the same key, applied once', async () => {
    const store = createMemoryStore();
    const clock = createVirtualClock(START);
    const stuck = deferred<HandoffAnswer>();
    const seen: { host: string; key: string; attempt: number }[] = [];
    const hostA = harness({
      store,
      clock,
      connectors: {
        bank: (_request, context) => {
          seen.push({ host: 'a', key: context.idempotencyKey, attempt: context.attempt });
          return stuck.promise; // a host that stopped answering (its abort is 30 s away)
        },
      },
    });
    const hostB = harness({
      store,
      clock,
      connectors: {
        bank: (_request, context) => {
          seen.push({ host: 'b', key: context.idempotencyKey, attempt: context.attempt });
          return Promise.resolve({ outcome: 'confirmed', reference: 'FROM-B' });
        },
      },
    });
    const run = await createPayout(hostA.engine);
    const pik = partnerIdempotencyKey(run.id, 'pay', 1);
    const aWorking = hostA.engine.runDueHandoffs('live');
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    // While A's lease holds, B claims nothing.
    expect(await hostB.engine.runDueHandoffs('live')).toBe(0);
    hostA.advance(30_001);
    expect(await hostB.engine.runDueHandoffs('live')).toBe(1);
    stuck.resolve({ outcome: 'confirmed', reference: 'FROM-A' });
    expect(await aWorking).toBe(0);

    expect(seen).toEqual([
      { host: 'a', key: pik, attempt: 1 },
      { host: 'b', key: pik, attempt: 2 },
    ]);
    const confirmed = await recordsOf(hostA.engine, live, run.id, 'program_run.handoff.confirmed');
    expect(confirmed.map((record) => record.data.reference)).toEqual(['FROM-B']);
    const attempts = await recordsOf(hostA.engine, live, run.id, 'program_run.handoff.attempted');
    expect(attempts.map((record) => record.data.call)).toEqual([2]);
    expect((await jobsOf(store, run.id))[0]).toMatchObject({ status: 'closed', calls: 2 });
  });

  it('aborts the call when its lease ends and retries it as a timeout', async () => {
    let leaseUntil = '';
    let abortedAt = '';
    const { engine, store } = harness({
      clock: createOffsetClock(), // real time: the abort is a real timer
      handoffs: { leaseMs: 150 },
      connectors: {
        bank: async (request, context) => {
          leaseUntil = (await jobsOf(store, request.run_id))[0]?.lease_until ?? '';
          return new Promise((_resolve, reject) => {
            context.signal.addEventListener('abort', () => {
              abortedAt = new Date().toISOString();
              reject(new Error('aborted by the signal'));
            });
          });
        },
      },
    });
    const run = await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    // The signal fired when the lease ended (timers never fire early; allow clock rounding).
    expect(leaseUntil).not.toBe('');
    expect(Date.parse(abortedAt)).toBeGreaterThanOrEqual(Date.parse(leaseUntil) - 2);
    const job = (await engine.getRun(live, run.id)).awaiting?.handoff_job;
    expect(job).toMatchObject({ status: 'queued', attempts: 1, last_error: { class: 'timeout' } });
    const [attempted] = await recordsOf(engine, live, run.id, 'program_run.handoff.attempted');
    expect(attempted!.data).toMatchObject({ outcome: 'retrying', error_class: 'timeout' });
  });

  it('stops waiting for a call that ignores its signal once the lease ends', async () => {
    const { engine } = harness({
      clock: createOffsetClock(),
      handoffs: { leaseMs: 100 },
      connectors: { bank: () => new Promise(() => undefined) },
    });
    const run = await createPayout(engine);
    expect(await engine.runDueHandoffs('live')).toBe(1);
    expect((await engine.getRun(live, run.id)).awaiting?.handoff_job).toMatchObject({
      status: 'queued',
      last_error: { class: 'timeout' },
    });
  });
});
